/// Shares one operation among concurrent callers of the same resource, with
/// reference-counted cancellation: the operation is cancelled only when every caller
/// has cancelled.
///
/// Why no flight is ever left without a runner:
/// - A flight enters the table in one locked step together with the promise of a
///   runner. A leader (a caller that runs the operation in its own task) checks and
///   intercepts its lease inside that step, with the lease's lock nested in this one:
///   a cancellation of the lease either comes first — then nothing is registered — or
///   finds the interceptor, which removes the leader under this lock. Any other
///   starter launches its runner task right after the step, before it can leave.
/// - A registered runner runs the operation to its end, then finishes the flight for
///   every caller still in it. A caller that leaves is removed; the last one to leave
///   removes the flight and cancels its runner.
/// - So every flight in the table has a runner that will finish it, or none of its
///   callers is left. Lock order: this lock, then a lease's; a lease calls its
///   interceptor after releasing its own lock.
final class Coalescer: Sendable {
    /// What makes two loads the same load: the resource, and whether it bypasses the
    /// stored validators.
    struct Key: Hashable, Sendable {
        let identity: ResourceIdentity
        let ignoresCache: Bool
    }

    private struct Flight {
        let id: Int
        /// Cancels the operation: its own task, or the task of the caller leading it.
        var cancel: (@Sendable () -> Void)?
        var callers: Set<Int> = []
        var waiting: [Int: CheckedContinuation<(any Sendable)?, Never>] = [:]
    }

    private struct State {
        var flights: [Key: Flight] = [:]
        var nextID = 0
        /// Outcomes for callers that had not started waiting when their flight ended.
        var delivered: [Int: any Sendable] = [:]
        /// Callers that cancelled before they started waiting.
        var departed: Set<Int> = []
    }

    private let state = Locked(State())
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
    /// outcome, or `nil` when the calling task was cancelled.
    func run<T: Sendable>(
        _ key: Key,
        operation: @escaping @Sendable () async -> T
    ) async -> T? {
        let (caller, flightID, starts) = state.withLock { state in
            let caller = state.nextID
            state.nextID += 1
            if var flight = state.flights[key] {
                flight.callers.insert(caller)
                state.flights[key] = flight
                return (caller, flight.id, false)
            }
            state.nextID += 1
            var flight = Flight(id: state.nextID)
            flight.callers.insert(caller)
            state.flights[key] = flight
            return (caller, flight.id, true)
        }
        if starts {
            let task = Task { [self] in
                finish(key, flightID, with: await operation())
            }
            let orphaned = state.withLock { state in
                guard state.flights[key]?.id == flightID else { return true }
                state.flights[key]?.cancel = { task.cancel() }
                return false
            }
            if orphaned {
                task.cancel()
            }
        }
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let ready: (any Sendable)?? = state.withLock { state in
                    if let value = state.delivered.removeValue(forKey: caller) {
                        return .some(value)
                    }
                    if state.departed.remove(caller) != nil {
                        return .some(nil)
                    }
                    state.flights[key]?.waiting[caller] = continuation
                    return nil
                }
                if let ready {
                    continuation.resume(returning: ready)
                }
            }
        } onCancel: {
            leave(key, flightID, caller)
        }
        return outcome as? T
    }

    /// Runs `operation` in the calling task when no identical one is in flight — the
    /// caller leads it, and other callers may join — or joins the one in flight.
    /// Cancelling `lease` makes a leader leave: its task is cancelled only if nobody
    /// else waits. Returns `nil` when the caller was cancelled.
    func run<T: Sendable>(
        _ key: Key,
        lease: FetchLease,
        operation: @escaping @Sendable () async -> T
    ) async -> T? {
        let role: LeaseRole = state.withLock { state in
            guard state.flights[key] == nil else {
                return lease.isCancelled ? .cancelled : .joins
            }
            let caller = state.nextID
            let flightID = caller + 1
            state.nextID += 2
            let stillWanted = lease.intercept { [self] in
                leaderLeaves(key, flightID, caller)
            }
            guard stillWanted else { return .cancelled }
            var flight = Flight(id: flightID)
            flight.callers.insert(caller)
            flight.cancel = { lease.cancelTask() }
            state.flights[key] = flight
            return .leads(caller: caller, flightID: flightID)
        }
        switch role {
        case .cancelled:
            return nil
        case .joins:
            return await run(key, operation: operation)
        case .leads(let caller, let flightID):
            await leaderRegistered?()
            let value = await operation()
            lease.endInterception()
            finish(key, flightID, with: value, leader: caller)
            return value
        }
    }

    /// What a caller with a lease does.
    private enum LeaseRole {
        /// Its lease was cancelled before it could lead or join.
        case cancelled
        /// An identical operation is in flight.
        case joins
        /// It leads a new flight.
        case leads(caller: Int, flightID: Int)
    }

    /// Removes a leading caller; returns whether nobody else waits, so that its
    /// task may be cancelled.
    private func leaderLeaves(_ key: Key, _ flightID: Int, _ caller: Int) -> Bool {
        state.withLock { state in
            guard var flight = state.flights[key], flight.id == flightID else { return true }
            flight.callers.remove(caller)
            guard flight.callers.isEmpty else {
                state.flights[key] = flight
                return false
            }
            state.flights[key] = nil
            return true
        }
    }

    private func finish(
        _ key: Key,
        _ flightID: Int,
        with value: any Sendable,
        leader: Int? = nil
    ) {
        let waiting = state.withLock { state in
            guard let flight = state.flights[key], flight.id == flightID else {
                return [CheckedContinuation<(any Sendable)?, Never>]()
            }
            state.flights[key] = nil
            for caller in flight.callers where flight.waiting[caller] == nil && caller != leader {
                state.delivered[caller] = value
            }
            return Array(flight.waiting.values)
        }
        for continuation in waiting {
            continuation.resume(returning: value)
        }
    }

    private func leave(_ key: Key, _ flightID: Int, _ caller: Int) {
        let (continuation, cancel) = state.withLock { state in
            guard var flight = state.flights[key], flight.id == flightID,
                flight.callers.remove(caller) != nil
            else {
                return (
                    CheckedContinuation<(any Sendable)?, Never>?.none, (@Sendable () -> Void)?.none
                )
            }
            let continuation = flight.waiting.removeValue(forKey: caller)
            if continuation == nil {
                state.departed.insert(caller)
            }
            if flight.callers.isEmpty {
                state.flights[key] = nil
                return (continuation, flight.cancel)
            }
            state.flights[key] = flight
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
