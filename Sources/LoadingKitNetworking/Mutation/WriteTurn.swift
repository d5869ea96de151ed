/// One mutation's place among a webservice's writes: it ends once, and whoever waits
/// on it — the next mutation of its scope, a load of a value it changes — goes on then,
/// or as soon as its own task is cancelled.
package final class WriteTurn: Sendable {
    /// The mutation's scope, if any.
    let scope: String?
    /// The values the mutation changes at once or with its answer.
    let identities: [ResourceIdentity]
    /// Whether the mutation changes the value of an identity.
    let changesValue: @Sendable (ResourceIdentity) -> Bool
    /// Whether the turn only holds back the loads of the values it changes — the
    /// outbox's pass over the writes that wait — overlapping no mutation.
    let holdsLoadsOnly: Bool
    private let state: Locked<State>

    private struct State {
        /// The turn of the mutation sent before this one in its scope, until it ended.
        var previous: WriteTurn?
        var hasEnded = false
        var isOverlapped = false
        var onEnd: [@Sendable () -> Void] = []
    }

    init(
        previous: WriteTurn?,
        scope: String?,
        identities: [ResourceIdentity],
        holdsLoadsOnly: Bool = false,
        changesValue: @escaping @Sendable (ResourceIdentity) -> Bool
    ) {
        self.scope = scope
        self.identities = identities
        self.holdsLoadsOnly = holdsLoadsOnly
        self.changesValue = changesValue
        state = Locked(State(previous: previous))
    }

    /// Whether a mutation of another scope that changes a value this one changes was
    /// under way with it: the server may have taken the two in either order, so
    /// neither's answer tells the value it holds now.
    var isOverlapped: Bool { state.withLock { $0.isOverlapped } }

    /// Marks this turn and `other` as overlapped when they change a value in common
    /// and are not of one scope, which runs them one after another.
    func noteOverlap(with other: WriteTurn) {
        guard !holdsLoadsOnly, !other.holdsLoadsOnly, scope == nil || scope != other.scope,
            identities.contains(where: other.changesValue)
                || other.identities.contains(where: changesValue)
        else { return }
        state.withLock { $0.isOverlapped = true }
        other.state.withLock { $0.isOverlapped = true }
    }

    /// Returns once the mutation sent before this one in its scope has ended, or at
    /// once when the calling task is cancelled; calls `waiting` first when it has not.
    func previousEnded(waiting: () -> Void) async {
        guard let previous = state.withLock({ $0.previous }), !previous.hasEnded else { return }
        waiting()
        await previous.ended()
        if !Task.isCancelled {
            state.withLock { $0.previous = nil }
        }
    }

    /// Returns once the turn has ended, or at once when the calling task is cancelled.
    func ended() async {
        let ended = OneShot<Void>()
        whenEnded { ended.fire(()) }
        await withTaskCancellationHandler {
            await ended.wait()
        } onCancel: {
            ended.fire(())
        }
    }

    /// Whether the turn has ended.
    var hasEnded: Bool { state.withLock { $0.hasEnded } }

    /// Runs `action` once the turn has ended — now, when it has.
    func whenEnded(_ action: @escaping @Sendable () -> Void) {
        let hasEnded = state.withLock { state in
            if !state.hasEnded {
                state.onEnd.append(action)
            }
            return state.hasEnded
        }
        if hasEnded {
            action()
        }
    }

    /// Ends the turn once the turn before it has ended — the next mutation of the scope
    /// never overtakes one still under way — waking whoever waits on it.
    func end() {
        if let previous = state.withLock({ state in
            defer { state.previous = nil }
            return state.previous
        }) {
            previous.whenEnded { self.end() }
            return
        }
        let actions = state.withLock { state in
            state.hasEnded = true
            defer { state.onEnd = [] }
            return state.onEnd
        }
        for action in actions {
            action()
        }
    }
}
