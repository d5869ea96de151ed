import Foundation

/// When a live resource's connection is made again, and when a silent one is given up.
///
/// ```swift
/// var reconnection = LiveReconnection()
/// reconnection.delay = .milliseconds(500)  // until the server sends `retry:`
/// reconnection.idleTimeout = .seconds(30)  // the server sends a comment every 15 s
/// let live = LiveResource<Story>(url: liveURL).reconnecting(reconnection)
/// ```
///
/// The first reconnection after a stream that delivered waits the reconnection time —
/// the server's `retry:`, else ``delay`` — moved by ``jitter``. Each reconnection that
/// follows one that failed (no response, a `429`, `503` or other `5xx`) waits
/// ``multiplier`` times longer, up to ``maximumDelay``; a `Retry-After` on a `429` or
/// `503` is honoured up to ``maximumRetryAfter``.
public struct LiveReconnection: Sendable {
    /// The reconnection time until the server sets one with `retry:`. Default: 3 s.
    public var delay: Duration
    /// How much longer each reconnection waits after one that failed. Default: 2.
    public var multiplier: Double
    /// The longest wait between connections. Default: 60 s.
    public var maximumDelay: Duration
    /// How far each wait is moved either way, as a fraction of it. Default: 0.2.
    public var jitter: Double
    /// How long a connection may stay without a byte — not even a comment — before it
    /// is given up and made again; `nil`, zero or less for never. Default: 45 s.
    public var idleTimeout: Duration?
    /// The longest `Retry-After` honoured; a longer one stops the stream. Default: 5
    /// minutes.
    public var maximumRetryAfter: Duration
    /// Draws the jitter. Default: ``RandomSource/system``.
    public var random: RandomSource

    /// Creates reconnection settings.
    ///
    /// - Parameters:
    ///   - delay: The reconnection time until the server sets one.
    ///   - multiplier: How much longer each wait after a failed reconnection is.
    ///   - maximumDelay: The longest wait.
    ///   - jitter: How far each wait is moved either way, as a fraction of it.
    ///   - idleTimeout: How long a silent connection is kept; `nil`, zero or less for
    ///     ever.
    ///   - maximumRetryAfter: The longest `Retry-After` honoured.
    ///   - random: Draws the jitter.
    public init(
        delay: Duration = .seconds(3),
        multiplier: Double = 2,
        maximumDelay: Duration = .seconds(60),
        jitter: Double = 0.2,
        idleTimeout: Duration? = .seconds(45),
        maximumRetryAfter: Duration = .seconds(300),
        random: RandomSource = .system
    ) {
        self.delay = delay
        self.multiplier = multiplier
        self.maximumDelay = maximumDelay
        self.jitter = jitter
        self.idleTimeout = idleTimeout
        self.maximumRetryAfter = maximumRetryAfter
        self.random = random
    }

    /// The idle timeout in force: ``idleTimeout`` when it is more than zero.
    var watchedIdleTimeout: Duration? {
        idleTimeout.flatMap { $0 > .zero ? $0 : nil }
    }

    /// The wait before a reconnection.
    ///
    /// - Parameters:
    ///   - reconnectionTime: The stream's reconnection time: the server's, or
    ///     ``delay``.
    ///   - failures: How many connections in a row failed before it: 0 after a stream
    ///     that delivered.
    /// - Returns: The reconnection time, times ``multiplier`` once per failure, at most
    ///   ``maximumDelay``, moved by up to ``jitter`` of itself.
    public func wait(after reconnectionTime: Duration, failures: Int) -> Duration {
        reconnectionTime.grown(by: multiplier, times: failures, upTo: maximumDelay)
            .spread(by: jitter, drawing: random, upTo: maximumDelay)
    }
}
