/// The cancellation of a fetch that runs in a task of its own, for loaders that own
/// such a task: a coalesced request can then run in that task instead of a task of
/// its own, and cancelling the lease cancels the task only when no other caller
/// shares the request.
package final class FetchLease: Sendable {
    private struct State {
        var isCancelled = false
        var cancelTask: (@Sendable () -> Void)?
        /// While the leaseholder leads a shared request: whether cancelling should
        /// cancel its task (no other caller waits), after letting it leave.
        var interceptor: (@Sendable () -> Bool)?
    }

    private let state = Locked(State())

    package init() {}

    /// Binds the lease to the task that runs the fetch; cancels it at once when the
    /// lease was cancelled already.
    package func bind(cancellingTask cancelTask: @escaping @Sendable () -> Void) {
        let cancelled = state.withLock { state in
            state.cancelTask = cancelTask
            return state.isCancelled
        }
        if cancelled {
            cancelTask()
        }
    }

    /// Cancels the fetch: the task is cancelled unless it leads a request that other
    /// callers still wait for, which then goes on for them.
    package func cancel() {
        let (interceptor, cancelTask) = state.withLock { state in
            guard !state.isCancelled else {
                return ((@Sendable () -> Bool)?.none, (@Sendable () -> Void)?.none)
            }
            state.isCancelled = true
            defer { state.interceptor = nil }
            return (state.interceptor, state.cancelTask)
        }
        if interceptor?() ?? true {
            cancelTask?()
        }
    }

    /// Whether the lease was cancelled. Read under the coalescer's lock, so it takes
    /// only its own.
    var isCancelled: Bool { state.withLock { $0.isCancelled } }

    /// Cancels the task whatever the lease says: the shared request it leads has no
    /// caller left.
    func cancelTask() {
        let cancelTask = state.withLock { $0.cancelTask }
        cancelTask?()
    }

    /// Installs `interceptor` while the leaseholder leads a shared request; returns
    /// `false` when the lease is cancelled already. Called under the coalescer's lock,
    /// so it takes only its own.
    func intercept(with interceptor: @escaping @Sendable () -> Bool) -> Bool {
        state.withLock { state in
            guard !state.isCancelled else { return false }
            state.interceptor = interceptor
            return true
        }
    }

    /// Removes the interceptor once the shared request has ended.
    func endInterception() {
        state.withLock { $0.interceptor = nil }
    }
}
