import Foundation
import LoadingKitNetworking

/// Where a drill's server cuts its connections: at a random byte of a random event,
/// each place used once, so that the stream reaches its end.
///
/// ```swift
/// let plan = DropPlan(events: 100_000, drops: 1_000, seed: 1)
/// let cut = plan.cut(from: 1)  // the first cut at or after event 1, used up
/// ```
final class DropPlan: Sendable {
    /// A cut: after `offset` bytes of event `event`.
    struct Cut: Sendable {
        let event: Int
        let offset: Int
    }

    private let cuts: [Cut]
    private let used = Locked(0)

    /// Plans `drops` cuts among `events` events, from `seed`.
    init(events: Int, drops: Int, seed: UInt64) {
        var random = SplitMix(seed: seed)
        var chosen = Set<Int>()
        while chosen.count < min(drops, events) {
            chosen.insert(Int.random(in: 1...events, using: &random))
        }
        cuts = chosen.sorted().map { event in
            Cut(
                event: event,
                offset: Int.random(in: 0..<Self.text(of: event).utf8.count, using: &random)
            )
        }
    }

    /// How many cuts were made so far.
    var made: Int { used.withLock { $0 } }

    /// The next cut not made yet, at or after event `first`, now counted as made;
    /// `nil` when none is left.
    func cut(from first: Int) -> Cut? {
        used.withLock { used in
            while used < cuts.count, cuts[used].event < first {
                used += 1
            }
            guard used < cuts.count else { return nil }
            defer { used += 1 }
            return cuts[used]
        }
    }

    /// Event `number` as the server writes it.
    static func text(of number: Int) -> String {
        "id: \(number)\ndata: \(number)\n\n"
    }
}

/// A reproducible random number generator (SplitMix64).
struct SplitMix: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
