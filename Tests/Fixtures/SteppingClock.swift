import Foundation

/// A clock with instants of its own type, not `ContinuousClock`'s, standing for the
/// clocks of other libraries: sleeping moves it to the deadline at once, recording the
/// sleep, and tests move it by hand.
public final class SteppingClock: Clock, @unchecked Sendable {
    /// An instant: the time since the clock's zero.
    public struct Instant: InstantProtocol {
        let offset: Duration

        /// The instant `duration` later.
        public func advanced(by duration: Duration) -> Instant {
            Instant(offset: offset + duration)
        }

        /// The time from this instant to `other`.
        public func duration(to other: Instant) -> Duration {
            other.offset - offset
        }

        /// Whether `lhs` comes first.
        public static func < (lhs: Instant, rhs: Instant) -> Bool {
            lhs.offset < rhs.offset
        }
    }

    private let lock = NSLock()
    private var current = Instant(offset: .seconds(1_000))
    private var recorded: [Duration] = []

    /// A clock standing at 1,000 seconds after its zero.
    public init() {}

    /// The current instant.
    public var now: Instant { lock.withLock { current } }

    /// None: it moves exactly.
    public var minimumResolution: Duration { .zero }

    /// The duration of every sleep requested, in order.
    public var sleeps: [Duration] { lock.withLock { recorded } }

    /// Records the sleep and moves the clock to `deadline` at once.
    public func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        try Task.checkCancellation()
        lock.withLock {
            recorded.append(current.duration(to: deadline))
            current = max(current, deadline)
        }
    }

    /// Moves the clock forward by `duration`.
    public func advance(by duration: Duration) {
        lock.withLock { current = current.advanced(by: duration) }
    }
}
