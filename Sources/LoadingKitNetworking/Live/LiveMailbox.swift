/// The updates handed to one follower and not yet taken: the connection puts them in,
/// and the follower's task takes all that wait at once — or the mailbox forwards them
/// to a handler on the main actor.
///
/// ```swift
/// let mailbox = LiveMailbox<Story>()
/// mailbox.put([.state(.connected)])          // from the connection's reading
/// let updates = await mailbox.take()         // in the follower's task
/// mailbox.finish()                           // `take()` returns `nil` once emptied
/// ```
///
/// Forwarding is how screens follow: a task awaiting updates on the main actor is
/// resumed on the global executor and hops to the main actor after, two thread wakes
/// for each piece of the stream, where forwarding enqueues one main-actor job for all
/// that waits. A task taking updates that is cancelled, like a mailbox no follower
/// holds any more, runs `onCancel` once: the follower leaves.
final class LiveMailbox<Event: Sendable>: Sendable {
    /// Shows updates on the main actor.
    typealias Handler = @MainActor @Sendable ([LiveUpdate<Event>]) -> Void
    private typealias Waiter = UnsafeContinuation<[LiveUpdate<Event>]?, Never>

    private struct Forwarding {
        let handler: Handler
        let ended: @MainActor @Sendable () -> Void
        /// Whether a main-actor job is on its way to take what waits.
        var isScheduled = false
    }

    private struct State {
        var pending: [LiveUpdate<Event>] = []
        var waiter: Waiter?
        var forwarding: Forwarding?
        var isFinished = false
        var onCancel: (@Sendable () -> Void)?

        /// Whether a main-actor job must be scheduled to forward what waits, marking
        /// it scheduled.
        mutating func schedulesForwarding() -> Bool {
            guard forwarding?.isScheduled == false else { return false }
            forwarding?.isScheduled = true
            return true
        }
    }

    private let state = Locked(State())

    /// Sets what runs once when the follower's task is cancelled or the follower is
    /// released; nothing runs after ``finish()``.
    ///
    /// - Parameter onCancel: Takes the follower away.
    func whenCancelled(_ onCancel: @escaping @Sendable () -> Void) {
        state.withLock { $0.onCancel = $0.isFinished ? nil : onCancel }
    }

    /// Puts `updates` in after those waiting, unless the mailbox was finished.
    ///
    /// - Parameter updates: The updates, in order.
    func put(_ updates: [LiveUpdate<Event>]) {
        let (waiter, forwards) = state.withLock { state -> (Waiter?, Bool) in
            guard !state.isFinished else { return (nil, false) }
            guard let waiter = state.waiter else {
                state.pending += updates
                return (nil, state.schedulesForwarding())
            }
            state.waiter = nil
            return (waiter, false)
        }
        waiter?.resume(returning: updates)
        if forwards {
            scheduleForwarding()
        }
    }

    /// Ends the mailbox: what waits is still taken or forwarded, then
    /// ``take(isolation:)`` returns `nil`, or the forwarding ends.
    func finish() {
        let (waiter, forwards) = state.withLock { state -> (Waiter?, Bool) in
            state.isFinished = true
            state.onCancel = nil
            defer { state.waiter = nil }
            return (state.waiter, state.schedulesForwarding())
        }
        waiter?.resume(returning: nil)
        if forwards {
            scheduleForwarding()
        }
    }

    /// Hands every update put in — those waiting first — to `handler` on the main actor,
    /// all that waits in one call, until the mailbox is finished; then runs `ended`.
    /// Instead of ``take(isolation:)``: call it once.
    ///
    /// - Parameters:
    ///   - handler: Shows the updates.
    ///   - ended: Runs once, after the last updates.
    func forward(to handler: @escaping Handler, ended: @escaping @MainActor @Sendable () -> Void) {
        let forwards = state.withLock { state in
            state.forwarding = Forwarding(handler: handler, ended: ended)
            return (!state.pending.isEmpty || state.isFinished) && state.schedulesForwarding()
        }
        if forwards {
            scheduleForwarding()
        }
    }

    private func scheduleForwarding() {
        Task { @MainActor in forwardWaiting() }
    }

    /// Forwards what waits, and ends the forwarding once the mailbox is finished.
    @MainActor
    private func forwardWaiting() {
        let (updates, forwarding, isFinished) = state.withLock { state in
            let taken = (state.pending, state.forwarding, state.isFinished)
            state.pending = []
            if state.isFinished {
                state.forwarding = nil
            } else {
                state.forwarding?.isScheduled = false
            }
            return taken
        }
        guard let forwarding else { return }
        if !updates.isEmpty {
            forwarding.handler(updates)
        }
        if isFinished {
            forwarding.ended()
        }
    }

    /// Ends the mailbox at once, dropping what waits, and runs its cancellation hook.
    func cancel() {
        let (waiter, onCancel) = state.withLock { state in
            state.isFinished = true
            state.pending = []
            state.forwarding = nil
            defer {
                state.waiter = nil
                state.onCancel = nil
            }
            return (state.waiter, state.onCancel)
        }
        waiter?.resume(returning: nil)
        onCancel?()
    }

    /// Every update waiting, in order, once there is one; `nil` once the mailbox was
    /// finished and emptied, or the calling task was cancelled.
    ///
    /// - Parameter actor: The caller's actor, which the task is back on when this
    ///   returns.
    /// - Returns: The updates.
    func take(isolation actor: isolated (any Actor)? = #isolation) async -> [LiveUpdate<Event>]? {
        await withTaskCancellationHandler {
            await withUnsafeContinuation(isolation: actor) { waiter in
                let ready: [LiveUpdate<Event>]?? = state.withLock { state in
                    if !state.pending.isEmpty {
                        defer { state.pending = [] }
                        return .some(state.pending)
                    }
                    guard !state.isFinished else { return .some(nil) }
                    state.waiter = waiter
                    return nil
                }
                if let ready {
                    waiter.resume(returning: ready)
                }
            }
        } onCancel: {
            cancel()
        }
    }
}
