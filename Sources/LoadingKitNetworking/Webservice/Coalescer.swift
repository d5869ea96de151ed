/// Shares one operation among concurrent callers of the same resource, with
/// reference-counted cancellation: the operation is cancelled only when every caller
/// has left. This file holds the whole cancellation model of the two modules.
///
/// ## The model
///
/// - **Callers.** Every caller of ``run(_:lease:operation:)`` is one entry in the
///   flight of its key: the first opens the flight, later ones join it. A caller leaves
///   by being cancelled; the flight is cancelled when its last caller leaves.
/// - **Runners.** Each flight has exactly one runner. A caller with a ``FetchLease``
///   runs a task the kit owns, so it runs the operation in that task (it *leads*) and
///   is cancelled only through its lease. A caller without one runs in a task the user
///   owns, whose cancellation cannot be held back, so its flight gets a task of its
///   own to run in.
/// - **Waiting.** Every caller that does not lead waits for the flight's outcome and
///   returns `nil` at once when it is cancelled — the operation goes on for the others.
/// - **Answers that ended on the way.** A loader decides to load on the main actor and
///   fetches in a task that reaches this table a moment later. A request of the same
///   key that ends in between has no flight to join any more, so a leader whose lease
///   carries the mark of that decision takes the stored answer of such a request
///   (`RecentAnswers`) instead of running its operation. It asks once its own flight
///   is open: a request notes its answer before its flight ends, so none ends unseen.
/// - **The loader's side.** A loader runs each fetch in a detached task bound to a
///   lease and cancels it only through the lease. It numbers its operations, marks
///   an operation cancelled before cancelling its lease, and applies an outcome only
///   when it ends the operation it belongs to (`LoadingCore.end(_:)`): so a value that
///   arrives for a lease cancelled an instant too late is never applied.
///
/// ## Why no flight is ever left without a runner, and no caller without an outcome
///
/// - A flight enters the table in one locked step with its runner's promise. A leader
///   checks and intercepts its lease inside that step, the lease's lock nested in
///   this one: a cancellation of the lease either comes first — then nothing is
///   registered and the caller returns `nil` — or finds the interceptor, which makes
///   the leader leave under this lock. A flight without a leader gets its runner task
///   right after the step, before the caller can leave; a caller that left already
///   finds the flight gone and cancels the task.
/// - A runner runs the operation to its end, then finishes the flight for every caller
///   still in it: a caller already waiting is resumed, one that has not started
///   waiting finds its outcome delivered. A caller that leaves is resumed with `nil`,
///   or marked departed if it has not started waiting — unless it leads, as a leader
///   never waits. So each caller is resumed
///   exactly once, by whichever of finish and leave takes it out of the flight first.
/// - Lock order: this lock, then a lease's; a lease calls its interceptor after
///   releasing its own lock.
final class Coalescer: Sendable {
    /// What makes two loads the same load: the resource, whether it bypasses the
    /// stored validators, and the number of the credential it is sent with.
    struct Key: Hashable, Sendable {
        let identity: ResourceIdentity
        let ignoresCache: Bool
        let credential: UInt64
    }

    /// One caller's place in one flight. Not private: a client built with
    /// `-cross-module-optimization` referred to a private type's descriptor here and
    /// failed to compile ("Global is external, but doesn't have external or weak
    /// linkage", Swift 6.3.1).
    struct Ticket {
        let key: Key
        let flight: Int
        let caller: Int
    }

    struct Flight {
        let id: Int
        /// The caller that runs the operation in its own task, if one does: it never
        /// waits, so it is never marked departed.
        var leader: Int?
        /// Cancels the runner: its own task, or the task of the caller leading it.
        var cancel: (@Sendable () -> Void)?
        var callers: Set<Int> = []
        var waiting: [Int: CheckedContinuation<(any Sendable)?, Never>] = [:]
    }

    struct State {
        var flights: [Key: Flight] = [:]
        var lastID = 0
        /// Outcomes for callers that had not started waiting when their flight ended.
        var delivered: [Int: any Sendable] = [:]
        /// Callers that left before they started waiting.
        var departed: Set<Int> = []

        /// A number no flight or caller had before.
        mutating func newID() -> Int {
            lastID += 1
            return lastID
        }
    }

    /// How a caller takes part in a flight.
    private enum Role {
        /// Its lease was cancelled before it could take part.
        case cancelled
        /// It runs the operation in its own task.
        case leads(Ticket)
        /// It opened the flight, which needs a task to run in; it waits for it.
        case launches(Ticket)
        /// It waits for the flight in progress.
        case joins(Ticket)
    }

    /// Internal, not private: tests read what it keeps per request.
    let state = Locked(State())
    /// Runs between a leader's registration and its operation; tests use it to inject
    /// cancellations and joins there.
    private let leaderRegistered: (@Sendable () async -> Void)?

    /// Creates a coalescer.
    ///
    /// - Parameter leaderRegistered: Runs between a leader's registration and its
    ///   operation, for tests.
    init(leaderRegistered: (@Sendable () async -> Void)? = nil) {
        self.leaderRegistered = leaderRegistered
    }

    /// Runs `operation`, or joins an identical one in flight under `key`; returns its
    /// outcome, or `nil` when the caller was cancelled.
    ///
    /// - Parameters:
    ///   - key: What makes two operations the same.
    ///   - lease: The cancellation of the task the caller runs in, when the kit owns
    ///     it: the caller then leads a new flight in that task.
    ///   - joined: Called when the caller joins a flight in progress, or shares the
    ///     outcome `answered` returns.
    ///   - answered: An outcome a leader shares instead of running `operation`: the
    ///     answer of a request that ended after the caller decided to load, and before
    ///     it opened its flight. Asked once the flight is open, so that no answer can
    ///     end between the two.
    ///   - operation: The work to share.
    func run<T: Sendable>(
        _ key: Key,
        lease: FetchLease? = nil,
        joined: (@Sendable () -> Void)? = nil,
        answered: (@Sendable () -> T?)? = nil,
        operation: @escaping @Sendable () async -> T
    ) async -> T? {
        switch enter(key, lease: lease) {
        case .cancelled:
            return nil
        case .leads(let ticket):
            await leaderRegistered?()
            let value: T
            if let shared = answered?() {
                joined?()
                value = shared
            } else {
                value = await operation()
            }
            lease?.endInterception()
            finish(ticket, with: value, ranBy: ticket.caller)
            return value
        case .launches(let ticket):
            let task = Task { [self] in
                finish(ticket, with: await operation(), ranBy: nil)
            }
            let orphaned = state.withLock { state in
                guard state.flights[key]?.id == ticket.flight else { return true }
                state.flights[key]?.cancel = { task.cancel() }
                return false
            }
            if orphaned {
                task.cancel()
            }
            return await wait(ticket) as? T
        case .joins(let ticket):
            joined?()
            return await wait(ticket) as? T
        }
    }

    /// Cancels the flights whose key `matches`: their callers get
    /// ``WebserviceError/cancelled``, or their answer is dropped when it comes first.
    func cancelFlights(where matches: (Key) -> Bool) {
        let cancels = state.withLock { state in
            state.flights.filter { matches($0.key) }.compactMap(\.value.cancel)
        }
        for cancel in cancels {
            cancel()
        }
    }

    /// Joins the flight under `key`, or opens one, in one locked step.
    private func enter(_ key: Key, lease: FetchLease?) -> Role {
        state.withLock { state in
            let caller = state.newID()
            if var flight = state.flights[key] {
                guard lease?.isCancelled != true else { return .cancelled }
                flight.callers.insert(caller)
                state.flights[key] = flight
                return .joins(Ticket(key: key, flight: flight.id, caller: caller))
            }
            var flight = Flight(id: state.newID())
            flight.callers.insert(caller)
            let ticket = Ticket(key: key, flight: flight.id, caller: caller)
            guard let lease else {
                state.flights[key] = flight
                return .launches(ticket)
            }
            let stillWanted = lease.intercept { [self] in
                leave(ticket)
                return false
            }
            guard stillWanted else { return .cancelled }
            flight.cancel = { lease.cancelTask() }
            flight.leader = caller
            state.flights[key] = flight
            return .leads(ticket)
        }
    }

    /// Waits for the outcome of the flight, or `nil` once the waiting task is
    /// cancelled.
    private func wait(_ ticket: Ticket) async -> (any Sendable)? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let ready: (any Sendable)?? = state.withLock { state in
                    if let value = state.delivered.removeValue(forKey: ticket.caller) {
                        return .some(value)
                    }
                    if state.departed.remove(ticket.caller) != nil {
                        return .some(nil)
                    }
                    state.flights[ticket.key]?.waiting[ticket.caller] = continuation
                    return nil
                }
                if let ready {
                    continuation.resume(returning: ready)
                }
            }
        } onCancel: {
            leave(ticket)
        }
    }

    /// Ends the flight with `value` for every caller still in it but `runner`, the
    /// caller that ran it, if one did.
    private func finish(_ ticket: Ticket, with value: any Sendable, ranBy runner: Int?) {
        let waiting = state.withLock { state in
            guard let flight = state.flights[ticket.key], flight.id == ticket.flight else {
                return [CheckedContinuation<(any Sendable)?, Never>]()
            }
            state.flights[ticket.key] = nil
            for caller in flight.callers
            where flight.waiting[caller] == nil && caller != runner {
                state.delivered[caller] = value
            }
            return Array(flight.waiting.values)
        }
        for continuation in waiting {
            continuation.resume(returning: value)
        }
    }

    /// Takes a caller out of its flight, resuming it with `nil`; the last one out
    /// removes the flight and cancels its runner.
    private func leave(_ ticket: Ticket) {
        let (continuation, cancel) = state.withLock { state in
            guard var flight = state.flights[ticket.key], flight.id == ticket.flight,
                flight.callers.remove(ticket.caller) != nil
            else {
                return (
                    CheckedContinuation<(any Sendable)?, Never>?.none, (@Sendable () -> Void)?.none
                )
            }
            let continuation = flight.waiting.removeValue(forKey: ticket.caller)
            if continuation == nil, ticket.caller != flight.leader {
                state.departed.insert(ticket.caller)
            }
            if flight.callers.isEmpty {
                state.flights[ticket.key] = nil
                return (continuation, flight.cancel)
            }
            state.flights[ticket.key] = flight
            return (continuation, nil)
        }
        continuation?.resume(returning: nil)
        cancel?()
    }

    /// How many operations are in flight.
    var flightCount: Int { state.withLock { $0.flights.count } }

    /// How many callers wait on the operations in flight.
    var callerCount: Int {
        state.withLock { $0.flights.values.reduce(0) { $0 + $1.callers.count } }
    }
}

/// The cancellation of a fetch that runs in a task the kit owns (see ``Coalescer``):
/// the task is cancelled through the lease only, so that a task leading a request
/// other callers share goes on for them.
package final class FetchLease: Sendable {
    struct State {
        var isCancelled = false
        var cancelTask: (@Sendable () -> Void)?
        /// While the leaseholder leads a shared request: makes it leave, and says
        /// whether to cancel its task as well.
        var interceptor: (@Sendable () -> Bool)?
    }

    private let state = Locked(State())

    /// The ``Webservice/answerMark`` when the load was decided, until the first fetch
    /// takes it.
    private let decisionMark: Locked<UInt64?>

    /// Creates a lease that no task is bound to yet.
    ///
    /// - Parameter decidedAfter: The ``Webservice/answerMark`` read when the load was
    ///   decided: an answer of the same request that ends after it, before the first
    ///   fetch opens its flight, is shared with that fetch. `nil` shares none.
    package init(decidedAfter: UInt64? = nil) {
        decisionMark = Locked(decidedAfter)
    }

    /// The mark of the load's decision, for its first fetch only: a fetch that follows
    /// another in the same operation was decided by the answer before it, not then.
    package func takeDecisionMark() -> UInt64? {
        decisionMark.withLock { mark in
            defer { mark = nil }
            return mark
        }
    }

    /// Binds the lease to the task that runs the fetch; cancels it at once when the
    /// lease was cancelled already.
    ///
    /// - Parameter cancelTask: Cancels the task.
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
