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

extension Task where Success == Void, Failure == Never {
    /// Returns once the task has ended, or at once when the calling task is cancelled —
    /// by a test's time limit, say. The task itself goes on either way.
    nonisolated(nonsending) package func waitForEnd() async {
        guard !Task<Never, Never>.isCancelled else { return }
        let wake = Wake()
        await withTaskCancellationHandler {
            Task<Void, Never>.detached { [self] in
                await self.value
                wake.wake()
            }
            await wake.wait()
        } onCancel: {
            wake.wake()
        }
    }
}
