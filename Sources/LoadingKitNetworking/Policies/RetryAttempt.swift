/// One retry about to happen.
///
/// ```swift
/// retry.onAttempt = { log("attempt \($0.number) after \($0.error), waiting \($0.delay)") }
/// ```
public struct RetryAttempt: Sendable {
    /// The number of the attempt about to be made: 2 for the first retry.
    public let number: Int
    /// Why the previous attempt failed.
    public let error: WebserviceError
    /// How long the webservice waits before it.
    public let delay: Duration
    /// Whether the delay came from a `Retry-After` header.
    public let isFromRetryAfter: Bool
}
