import LoadingKitNetworking

/// A count that tasks can wait on: `wait(for: n)` returns once it reaches `n`.
package final class CounterSignal: Sendable {
    private struct State {
        var value = 0
        var waiters: [(target: Int, continuation: CheckedContinuation<Void, Never>)] = []
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

    /// Returns once the count has reached `target`.
    package func wait(for target: Int) async {
        await withCheckedContinuation { continuation in
            let reached = state.withLock { state in
                guard state.value < target else { return true }
                state.waiters.append((target, continuation))
                return false
            }
            if reached {
                continuation.resume()
            }
        }
    }
}
