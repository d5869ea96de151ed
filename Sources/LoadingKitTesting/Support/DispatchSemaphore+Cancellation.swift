import Dispatch
import LoadingKitNetworking

extension DispatchSemaphore {
    /// Waits for a signal off the caller's thread — or not at all once the calling task
    /// is cancelled, as by a test's time limit, so that a signal that never comes fails
    /// the test instead of stalling the run.
    ///
    /// ```swift
    /// let entered = DispatchSemaphore(value: 0)
    /// store.onWrite = { entered.signal() }
    /// let signalled = await entered.signalled()
    /// ```
    ///
    /// - Returns: Whether the semaphore was signalled: `false` when the task was
    ///   cancelled first. A cancelled wait signals the semaphore once, for the thread
    ///   that waited for it, so that every signal still reaches a waiter.
    package func signalled() async -> Bool {
        guard !Task.isCancelled else { return false }
        let outcome = OneShot<Bool>()
        return await withTaskCancellationHandler {
            DispatchQueue.global().async {
                self.wait()
                outcome.fire(true)
            }
            return await outcome.wait()
        } onCancel: {
            if outcome.fire(false) {
                // Wakes the thread waiting above, which takes this signal back.
                signal()
            }
        }
    }
}
