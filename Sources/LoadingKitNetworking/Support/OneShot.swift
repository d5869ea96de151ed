/// Hands one value to one waiting task, once: the first value given wins, whether the
/// task waits before or after it comes.
///
/// ```swift
/// let answer = OneShot<Int?>()
/// timer.whenFired { answer.fire(nil) }
/// request.whenAnswered { answer.fire($0) }
/// let first = await answer.wait()
/// ```
package final class OneShot<Value: Sendable>: Sendable {
    private let state = Locked<(continuation: CheckedContinuation<Value, Never>?, value: Value?)>(
        (nil, nil)
    )

    /// Creates a one-shot nobody has fired yet.
    package init() {}

    /// Suspends until ``fire(_:)`` is called, and returns its value; returns at once
    /// when it was called before.
    package func wait() async -> Value {
        await withCheckedContinuation { continuation in
            let fired = state.withLock { state in
                if state.value == nil {
                    state.continuation = continuation
                }
                return state.value
            }
            if let fired {
                continuation.resume(returning: fired)
            }
        }
    }

    /// Gives `value` to the waiting task, or to the next one to wait; later calls do
    /// nothing.
    ///
    /// - Parameter value: What the wait returns.
    /// - Returns: Whether this call gave the value: `false` for every call after the
    ///   first.
    @discardableResult
    package func fire(_ value: Value) -> Bool {
        let (fired, continuation) = state.withLock { state in
            guard state.value == nil else {
                return (false, CheckedContinuation<Value, Never>?.none)
            }
            state.value = value
            defer { state.continuation = nil }
            return (true, state.continuation)
        }
        continuation?.resume(returning: value)
        return fired
    }
}
