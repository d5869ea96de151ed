import LoadingKitNetworking

/// A count that tasks can wait on: `wait(for: n)` returns once it reaches `n`.
package final class CounterSignal: Sendable {
    private struct Waiter {
        let id: Int
        let target: Int
        let continuation: CheckedContinuation<Void, Never>
    }

    private struct State {
        var value = 0
        var nextWaiter = 0
        var waiters: [Waiter] = []
    }

    private let state = Locked(State())

    /// A count at zero.
    package init() {}

    package var value: Int { state.withLock { $0.value } }

    /// Adds one and wakes the waiters whose target is reached.
    package func increment() {
        let ready = state.withLock { state in
            state.value += 1
            let count = state.value
            defer { state.waiters.removeAll { $0.target <= count } }
            return state.waiters.filter { $0.target <= count }
        }
        for waiter in ready {
            waiter.continuation.resume()
        }
    }

    /// Returns once the count has reached `target` — or once the calling task is
    /// cancelled, so that a test whose time limit ends it does not wait forever.
    package func wait(for target: Int) async {
        let id = state.withLock { state in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let waits = state.withLock { state in
                    guard state.value < target, !Task.isCancelled else { return false }
                    state.waiters.append(Waiter(id: id, target: target, continuation: continuation))
                    return true
                }
                if !waits {
                    continuation.resume()
                }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                state.waiters.firstIndex { $0.id == id }.map { state.waiters.remove(at: $0) }
            }
            waiter?.continuation.resume()
        }
    }
}
