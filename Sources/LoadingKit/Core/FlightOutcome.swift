import LoadingKitNetworking

/// A flight's fetch, run off the main actor, and its outcome for whoever waits for it:
/// the caller that started the load, which stops waiting the moment its task is
/// cancelled, and the loads that joined it. Every wait ends at once when the flight is
/// abandoned: a newer load, a cancellation or the screen's release ended the operation.
/// A flight is abandoned before its fetch is cancelled, so the fetch of a load that
/// ended finds its flight abandoned however soon it ends.
///
/// The fetch may go on after its operation ended — it leads a request other screens
/// share — so no one waits for the fetch's task itself: that would keep a cancelled
/// caller waiting for somebody else's request.
final class FlightOutcome<Output: Sendable>: Sendable {
    /// Resumed exactly once: a waiter leaves the state under the lock, taken by
    /// the fetch's end, ``abandon()`` or its cancellation.
    typealias Waiter = UnsafeContinuation<Result<Output, any Error>?, Never>

    private struct State {
        var outcome: Result<Output, any Error>?
        /// Whether the operation ended another way: every wait ends with `nil`.
        var isAbandoned = false
        var nextWaiter = 0
        var waiters: [Int: Waiter] = [:]
        /// Waiters cancelled before they were registered.
        var cancelledEarly: Set<Int> = []
    }

    private let state = Locked(State())

    /// Starts `fetch` in a task of its own, cancelled through `lease`; its outcome goes
    /// to the waiters. The one hop back to the main actor is the resumption of a waiter.
    ///
    /// - Parameters:
    ///   - lease: The fetch's lease; cancelling it cancels the task.
    ///   - progress: Receives the transfer's progress.
    ///   - discarded: Runs when the fetch ends after the flight was abandoned: nothing
    ///     it brought is applied.
    ///   - fetch: The network work.
    init(
        lease: FetchLease,
        progress: @escaping @Sendable (TransferProgress) -> Void,
        discarded: (@Sendable () -> Void)?,
        fetch: @escaping @Sendable (FetchLease) async throws -> Output
    ) {
        let task = Task.detached { [self] in
            let outcome: Result<Output, any Error>
            do {
                outcome = .success(
                    try await TransferProgress.observing(progress) { try await fetch(lease) }
                )
            } catch {
                outcome = .failure(error)
            }
            if !deliver(outcome) {
                discarded?()
            }
        }
        lease.bind { task.cancel() }
    }

    /// Hands the fetch's outcome to every waiter, and to every later one; returns
    /// whether it may still be applied: not once the flight was abandoned.
    private func deliver(_ outcome: Result<Output, any Error>) -> Bool {
        let (waiters, isAbandoned) = state.withLock { state in
            state.outcome = outcome
            defer { state.waiters = [:] }
            return (Array(state.waiters.values), state.isAbandoned)
        }
        for waiter in waiters {
            waiter.resume(returning: outcome)
        }
        return !isAbandoned
    }

    /// Ends every wait, and every later one, with `nil`: the operation ended another
    /// way, and nothing the fetch brings is applied.
    func abandon() {
        let waiters = state.withLock { state in
            state.isAbandoned = true
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters {
            waiter.resume(returning: nil)
        }
    }

    /// Waits for the outcome on the main actor, where every waiter is: the wait is
    /// registered in the caller's turn, and the outcome resumes it there with one hop.
    /// With `onCancel`, the waiting task's cancellation runs it and then ends the wait
    /// at once with `nil`, unless the outcome came first.
    ///
    /// - Parameter onCancel: What the cancellation of the waiting task does before the
    ///   wait ends; `nil` to wait for the outcome whatever happens.
    /// - Returns: The outcome, or `nil` when the wait was cancelled or the flight
    ///   abandoned.
    @MainActor
    func wait(
        onCancel: (@Sendable () -> Void)?
    ) async -> Result<Output, any Error>? {
        let id = state.withLock { state in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        return await withTaskCancellationHandler {
            await withUnsafeContinuation { (waiter: Waiter) in
                let ready: Result<Output, any Error>?? = state.withLock { state in
                    if state.cancelledEarly.remove(id) != nil || state.isAbandoned {
                        return .some(nil)
                    }
                    if let outcome = state.outcome {
                        return .some(outcome)
                    }
                    state.waiters[id] = waiter
                    return nil
                }
                if let ready {
                    waiter.resume(returning: ready)
                }
            }
        } onCancel: {
            guard let onCancel else { return }
            onCancel()
            let waiter = state.withLock { state -> Waiter? in
                if let waiter = state.waiters.removeValue(forKey: id) {
                    return waiter
                }
                if state.outcome == nil, !state.isAbandoned {
                    state.cancelledEarly.insert(id)
                }
                return nil
            }
            waiter?.resume(returning: nil)
        }
    }
}
