import Foundation

/// When an ``Outbox`` sends the writes that wait by itself: after a wait that grows
/// while its server stays away, so a write kept offline goes as soon as the server
/// answers again, with no ``Outbox/resume()`` and no other request needed.
///
/// ```swift
/// var retry = OutboxRetry()
/// retry.maximumDelay = .seconds(30)  // try at least every 30 s while writes wait
/// let outbox = Outbox(directory: outboxDirectory, retry: retry)
/// ```
///
/// The first try waits ``delay``; each one after a try that sent nothing waits
/// ``multiplier`` times longer, up to ``maximumDelay``, every wait moved by
/// ``jitter``. A try that sent a write starts over at ``delay``. Each try sends the
/// oldest write that waits — its `Idempotency-Key` makes that safe — and the rest once
/// it gets through. Writes waiting only for an account that is not signed in are not
/// tried: signing in sends them.
public struct OutboxRetry: Sendable {
    /// The wait before the first try. Default: 1 s.
    public var delay: Duration
    /// How much longer each wait after a try that sent nothing is. Default: 2.
    public var multiplier: Double
    /// The longest wait between tries. Default: 60 s.
    public var maximumDelay: Duration
    /// How far each wait is moved either way, as a fraction of it. Default: 0.2.
    public var jitter: Double
    /// Draws the jitter. Default: ``RandomSource/system``.
    public var random: RandomSource

    /// Creates retry settings.
    ///
    /// - Parameters:
    ///   - delay: The wait before the first try.
    ///   - multiplier: How much longer each wait after a try that sent nothing is.
    ///   - maximumDelay: The longest wait.
    ///   - jitter: How far each wait is moved either way, as a fraction of it.
    ///   - random: Draws the jitter.
    public init(
        delay: Duration = .seconds(1),
        multiplier: Double = 2,
        maximumDelay: Duration = .seconds(60),
        jitter: Double = 0.2,
        random: RandomSource = .system
    ) {
        self.delay = delay
        self.multiplier = multiplier
        self.maximumDelay = maximumDelay
        self.jitter = jitter
        self.random = random
    }

    /// The wait before a try.
    ///
    /// - Parameter failures: How many tries in a row sent nothing before it.
    /// - Returns: ``delay`` times ``multiplier`` once per failure, at most
    ///   ``maximumDelay``, moved by up to ``jitter`` of itself.
    public func wait(afterFailures failures: Int) -> Duration {
        delay.grown(by: multiplier, times: failures, upTo: maximumDelay)
            .spread(by: jitter, drawing: random, upTo: maximumDelay)
    }
}
