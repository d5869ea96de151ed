/// Resumes one waiting task once, whichever of its wakers comes first.
package final class Wake: Sendable {
    private let state = Locked<(continuation: CheckedContinuation<Void, Never>?, isAwake: Bool)>(
        (nil, false)
    )

    /// Creates a wake nobody has called yet.
    package init() {}

    /// Suspends until ``wake()`` is called; returns at once when it was called before.
    package func wait() async {
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

    /// Resumes the waiting task, or the next one to wait; later calls do nothing.
    package func wake() {
        let continuation = state.withLock { state in
            defer { state = (nil, true) }
            return state.continuation
        }
        continuation?.resume()
    }
}
