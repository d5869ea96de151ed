/// One mutation's place among a webservice's writes: it ends once, and whoever waits
/// on it — the next mutation of its scope, a load of a value it changes — goes on then,
/// or as soon as its own task is cancelled.
package final class WriteTurn: Sendable {
    /// Whether the mutation changes the value of an identity.
    let changesValue: @Sendable (ResourceIdentity) -> Bool
    private let state: Locked<State>

    private struct State {
        /// The turn of the mutation sent before this one in its scope, until it ended.
        var previous: WriteTurn?
        var hasEnded = false
        var onEnd: [@Sendable () -> Void] = []
    }

    init(previous: WriteTurn?, changesValue: @escaping @Sendable (ResourceIdentity) -> Bool) {
        self.changesValue = changesValue
        state = Locked(State(previous: previous))
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
        let wake = Wake()
        whenEnded { wake.wake() }
        await withTaskCancellationHandler {
            await wake.wait()
        } onCancel: {
            wake.wake()
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

/// Resumes one waiting task once, whichever of its wakers comes first.
private final class Wake: Sendable {
    private let state = Locked<(continuation: CheckedContinuation<Void, Never>?, isAwake: Bool)>(
        (nil, false)
    )

    func wait() async {
        await withCheckedContinuation { continuation in
            let isAwake = state.withLock { state in
                if !state.isAwake {
                    state.continuation = continuation
                }
                return state.isAwake
            }
            if isAwake {
                continuation.resume()
            }
        }
    }

    func wake() {
        let continuation = state.withLock { state in
            defer { state = (nil, true) }
            return state.continuation
        }
        continuation?.resume()
    }
}
