import Synchronization

/// The mutations a webservice has under way, from the moment they are sent until they
/// end: those of one scope go one after another, and a load of a value one of them
/// changes waits until it has ended — its answer would not say whether the server
/// had the change yet.
final class PendingWrites: Sendable {
    private struct State {
        /// The last turn of each scope.
        var lastOfScope: [String: WriteTurn] = [:]
        /// The turns of the mutations under way.
        var underWay: [ObjectIdentifier: WriteTurn] = [:]
    }

    private let state = Locked(State())
    /// How many mutations are under way: a load reads it before taking the lock.
    private let count = Atomic<Int>(0)

    /// The turn of a mutation sent now, in `scope`, that changes the values
    /// `changesValue` says.
    func enqueue(
        in scope: String?,
        changing changesValue: @escaping @Sendable (ResourceIdentity) -> Bool
    ) -> WriteTurn {
        count.add(1, ordering: .relaxed)
        return state.withLock { state in
            let turn = WriteTurn(
                previous: scope.flatMap { state.lastOfScope[$0] },
                changesValue: changesValue
            )
            if let scope {
                state.lastOfScope[scope] = turn
            }
            state.underWay[ObjectIdentifier(turn)] = turn
            return turn
        }
    }

    /// Ends `turn`: loads go on at once, and the next mutation of its scope once the
    /// one before `turn` has ended too.
    func end(_ turn: WriteTurn, in scope: String?) {
        state.withLock { state in
            state.underWay[ObjectIdentifier(turn)] = nil
        }
        count.subtract(1, ordering: .relaxed)
        if let scope {
            turn.whenEnded { [weak self] in
                self?.state.withLock { state in
                    if state.lastOfScope[scope] === turn {
                        state.lastOfScope[scope] = nil
                    }
                }
            }
        }
        turn.end()
    }

    /// Whether no mutation is under way.
    var isEmpty: Bool { count.load(ordering: .relaxed) == 0 }

    /// Returns once every mutation under way that changes the value of `identity` has
    /// ended, or when the calling task is cancelled; calls `waiting` first when there
    /// is one.
    func settle(_ identity: ResourceIdentity, waiting: () -> Void) async {
        let changing = state.withLock { state in
            state.underWay.values.filter { $0.changesValue(identity) }
        }
        if !changing.isEmpty {
            waiting()
        }
        for turn in changing {
            await turn.ended()
        }
    }
}
