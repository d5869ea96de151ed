import Synchronization

/// The mutations a webservice has under way, from the moment they are sent until they
/// end: those of one scope go one after another, and a load of a value one of them
/// changes waits until it has ended, or for the webservice's `mutationWait` at most —
/// its answer would not say whether the server had the change yet.
final class PendingWrites: Sendable {
    private struct State {
        /// The last turn of each scope.
        var lastOfScope: [String: WriteTurn] = [:]
        /// The turns of the mutations under way.
        var underWay: [ObjectIdentifier: WriteTurn] = [:]
        /// The last mutations that reached the server, with the number of their
        /// settling, oldest first.
        var settled: [(number: UInt64, turn: WriteTurn)] = []
    }

    private let state = Locked(State())
    /// How many mutations are under way: a load reads it before taking the lock.
    private let count = Atomic<Int>(0)
    /// How many mutations that reached the server have settled.
    private let settledCount = Atomic<UInt64>(0)
    /// How many settled mutations are remembered; a request older than all of them
    /// counts as overtaken.
    private static let remembered = 64

    /// The mark a request takes as it is sent, for ``isOvertaken(since:changing:)``.
    var mark: UInt64 { settledCount.load(ordering: .acquiring) }

    /// Records that the mutation of `turn`, which may have reached the server, is
    /// settling: an answer to a request sent before is not stored from now on.
    func noteSettling(_ turn: WriteTurn) {
        state.withLock { state in
            let number = settledCount.add(1, ordering: .releasing).newValue
            state.settled.append((number, turn))
            if state.settled.count > Self.remembered {
                state.settled.removeFirst()
            }
        }
    }

    /// Whether a mutation changing the value of `identity` began settling since
    /// `mark`, which a request took as it was sent.
    func isOvertaken(since mark: UInt64, changing identity: ResourceIdentity) -> Bool {
        guard settledCount.load(ordering: .acquiring) != mark else { return false }
        return state.withLock { state in
            guard let oldest = state.settled.first, oldest.number <= mark + 1 else {
                return true
            }
            return state.settled.contains { $0.number > mark && $0.turn.changesValue(identity) }
        }
    }

    /// The turn of a mutation sent now, in `scope`, that changes `identities` at once
    /// or with its answer, and the values `changesValue` says.
    func enqueue(
        in scope: String?,
        changing identities: [ResourceIdentity],
        _ changesValue: @escaping @Sendable (ResourceIdentity) -> Bool
    ) -> WriteTurn {
        count.add(1, ordering: .relaxed)
        return state.withLock { state in
            let turn = WriteTurn(
                previous: scope.flatMap { state.lastOfScope[$0] },
                scope: scope,
                identities: identities,
                changesValue: changesValue
            )
            for other in state.underWay.values {
                turn.noteOverlap(with: other)
            }
            if let scope {
                state.lastOfScope[scope] = turn
            }
            state.underWay[ObjectIdentifier(turn)] = turn
            return turn
        }
    }

    /// A turn that holds back the loads of the values `changesValue` says until it
    /// ends — while the outbox sends the writes that waited, one after another — and
    /// neither waits for nor overlaps a mutation.
    func holdLoads(of changesValue: @escaping @Sendable (ResourceIdentity) -> Bool) -> WriteTurn {
        count.add(1, ordering: .relaxed)
        let turn = WriteTurn(
            previous: nil,
            scope: nil,
            identities: [],
            holdsLoadsOnly: true,
            changesValue: changesValue
        )
        state.withLock { $0.underWay[ObjectIdentifier(turn)] = turn }
        return turn
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
    /// ended, once `limit` has passed on `clock`, or when the calling task is
    /// cancelled; calls `waiting` first when there is one.
    ///
    /// - Parameters:
    ///   - identity: The value a load is about to ask for.
    ///   - limit: The longest wait: a mutation the server does not answer holds no load
    ///     longer; `nil` for as long as it takes. Zero or less waits for nothing.
    ///   - clock: The clock the wait is timed on.
    ///   - waiting: Told, before the wait, that there is one.
    func waitForMutations(
        changing identity: ResourceIdentity,
        atMost limit: Duration?,
        on clock: any Clock<Duration>,
        waiting: () -> Void
    ) async {
        let changing = state.withLock { state in
            state.underWay.values.filter { $0.changesValue(identity) }
        }
        guard !changing.isEmpty else { return }
        waiting()
        guard let limit else {
            for turn in changing {
                await turn.ended()
            }
            return
        }
        guard limit > .zero else { return }
        let over = OneShot<Void>()
        let left = Atomic<Int>(changing.count)
        for turn in changing {
            turn.whenEnded {
                if left.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 {
                    over.fire(())
                }
            }
        }
        let timer = Task<Void, Never> {
            guard (try? await clock.sleep(for: limit)) != nil else { return }
            over.fire(())
        }
        await withTaskCancellationHandler {
            await over.wait()
        } onCancel: {
            over.fire(())
        }
        timer.cancel()
    }
}
