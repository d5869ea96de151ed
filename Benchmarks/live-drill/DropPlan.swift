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
        let random = RandomSource.seeded(seed)
        /// A number from 0 to `count` - 1.
        func pick(_ count: Int) -> Int { min(count - 1, Int(random.next() * Double(count))) }
        var chosen = Set<Int>()
        while chosen.count < min(drops, events) {
            chosen.insert(1 + pick(events))
        }
        cuts = chosen.sorted().map { event in
            Cut(event: event, offset: pick(Self.text(of: event).utf8.count))
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
