/// The requests that ended with a stored answer, numbered in the order they ended,
/// so that a load decided before one of them ended — on the main actor, while the
/// request was in flight — and reaching the coalescer after it takes that answer, as
/// it would have had it joined the request in time, instead of sending another.
///
/// ```swift
/// let lease = FetchLease(decidedAfter: recentAnswers.mark)  // when the load is decided
/// // … a request of the same key ends and calls recentAnswers.note(key) …
/// recentAnswers.answered(key, since: lease.takeDecisionMark()!)  // true
/// ```
///
/// Only the number of each key's last answer is kept, never the value: the value is
/// read from the store. The table holds at most ``capacity`` keys, forgetting the older
/// half when it is full; a load decided before an answer it forgot sends its request.
final class RecentAnswers: Sendable {
    private struct State {
        var count: UInt64 = 0
        var last: [Coalescer.Key: UInt64] = [:]
    }

    private let state = Locked(State())

    /// How many keys the table holds before it forgets the oldest answers.
    static var capacity: Int { 256 }

    /// The number of the last answer so far: a load decided now was decided after it.
    var mark: UInt64 { state.withLock { $0.count } }

    /// Records that a request of `key` ended with an answer, now in the store.
    ///
    /// - Parameter key: The request's key.
    func note(_ key: Coalescer.Key) {
        state.withLock { state in
            state.count += 1
            state.last[key] = state.count
            if state.last.count > Self.capacity {
                let oldest = state.count - UInt64(Self.capacity / 2)
                state.last = state.last.filter { $0.value > oldest }
            }
        }
    }

    /// Forgets every answer, as the store forgets their values; marks keep counting.
    func forget() {
        state.withLock { $0.last.removeAll() }
    }

    /// Whether a request of `key` ended with an answer after `mark`.
    ///
    /// - Parameters:
    ///   - key: The request's key.
    ///   - mark: The ``mark`` read when the load was decided.
    func answered(_ key: Coalescer.Key, since mark: UInt64) -> Bool {
        state.withLock { state in (state.last[key] ?? 0) > mark }
    }
}
