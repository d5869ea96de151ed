import Foundation

/// The kit keeps every instant — when a value was loaded, when a retry or a deadline
/// is due — on `ContinuousClock`'s timeline, whatever clock it was given. A clock
/// whose instants are `ContinuousClock.Instant` (`ContinuousClock`, `ManualClock`) is
/// read as it is; any other is mapped by its offset from an anchor taken the first
/// time a clock of its type is read. For such a clock only durations between the
/// kit's instants mean something — what freshness, backoff and deadlines use — not
/// their distance from `ContinuousClock.now`.
extension Clock where Duration == Swift.Duration {
    /// `now`, on `ContinuousClock`'s timeline.
    package var continuousNow: ContinuousClock.Instant {
        // The live clock, every load: a comparison of types rather than a cast.
        if Self.self == ContinuousClock.self {
            return ContinuousClock.now
        }
        let now = self.now
        if let instant = now as? ContinuousClock.Instant {
            return instant
        }
        let anchor = ClockAnchor.of(Self.self, at: now)
        return anchor.continuous.advanced(by: anchor.instant.duration(to: now))
    }

    /// The wall-clock date: the clock's own when it is a ``DatedClock``, else `Date()`.
    package var dateNow: Date {
        if Self.self == ContinuousClock.self {
            return Date()
        }
        return (self as? any DatedClock)?.currentDate ?? Date()
    }

    /// Suspends until `deadline`, an instant on `ContinuousClock`'s timeline, comes on
    /// this clock; throws `CancellationError` when the task is cancelled.
    package func sleep(untilContinuous deadline: ContinuousClock.Instant) async throws {
        if let instant = deadline as? Instant {
            try await sleep(until: instant, tolerance: nil)
            return
        }
        let anchor = ClockAnchor.of(Self.self, at: now)
        try await sleep(
            until: anchor.instant.advanced(by: anchor.continuous.duration(to: deadline)),
            tolerance: nil
        )
    }
}

/// One instant of a clock type paired with the `ContinuousClock` instant it was read
/// at; the same for every clock of that type in the process.
struct ClockAnchor<Instant: InstantProtocol>: Sendable {
    let instant: Instant
    let continuous: ContinuousClock.Instant

    /// The anchor of clocks of type `clock`, taken at `now` if there is none yet.
    static func of<C: Clock>(_ clock: C.Type, at now: Instant) -> Self where C.Instant == Instant {
        clockAnchors.withLock { anchors in
            if let anchor = anchors[ObjectIdentifier(clock)] as? Self {
                return anchor
            }
            let anchor = Self(instant: now, continuous: .now)
            anchors[ObjectIdentifier(clock)] = anchor
            return anchor
        }
    }
}

/// The anchors taken so far, by clock type.
private let clockAnchors = Locked<[ObjectIdentifier: any Sendable]>([:])
