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
/// ``jitter``. A try that sent a write starts over at ``delay``. A wait is never
/// shorter than a tenth of a second, nor grows by less than 1: a delay of zero does not
/// spin. Each try sends every write that waits once, oldest first — their
/// `Idempotency-Key` makes that safe — except those behind a write of their scope that
/// still waits, or to a server that was not reached in this try. Writes waiting only
/// for an account that is not signed in are not tried: signing in sends them.
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
    ///   ``maximumDelay``, moved by up to ``jitter`` of itself; at least 0.1 s.
    public func wait(afterFailures failures: Int) -> Duration {
        let maximum = max(maximumDelay, Self.shortestWait)
        let wait = max(delay, Self.shortestWait)
            .grown(by: max(multiplier, 1), times: failures, upTo: maximum)
            .spread(by: min(max(jitter, 0), 1), drawing: random, upTo: maximum)
        return max(wait, Self.shortestWait)
    }

    /// The shortest wait between tries, whatever the settings say.
    private static let shortestWait = Duration.milliseconds(100)
}
