import Foundation

/// The arithmetic of a backoff — ``OutboxRetry`` and ``LiveReconnection`` wait by it:
/// a delay grown by a multiplier per failure, bounded, then moved by jitter.
///
/// ```swift
/// Duration.seconds(1).grown(by: 2, times: 3, upTo: .seconds(60))  // 8 s
/// ```
extension Duration {
    /// The duration times `multiplier` `count` times, at most `maximum`: worked out in
    /// seconds and bounded before it becomes a `Duration`, which traps on overflow
    /// (after about 68 doublings of a second).
    func grown(by multiplier: Double, times count: Int, upTo maximum: Duration) -> Duration {
        let seconds = secondsValue * pow(multiplier, Double(max(0, count)))
        let bounded = seconds.isFinite ? min(seconds, maximum.secondsValue) : maximum.secondsValue
        return .seconds(max(0, bounded))
    }

    /// The duration in seconds, as a `Double`.
    var secondsValue: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }

    /// The duration moved by up to `jitter` of itself either way, drawn from `random`,
    /// at most `maximum` and at least zero.
    func spread(by jitter: Double, drawing random: RandomSource, upTo maximum: Duration)
        -> Duration
    {
        let spread = 1 - jitter + 2 * jitter * random.next()
        return max(.zero, min(maximum, self * spread))
    }
}
