import LoadingKitNetworking

extension OutboxRetry {
    /// Tries again only when nudged — an answer from the server, `resume()` — within a
    /// test's time: the tests of those nudges see no try of the outbox's own.
    static let whenNudged = OutboxRetry(delay: .seconds(86_400), maximumDelay: .seconds(86_400))
}
