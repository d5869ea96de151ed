/// Shares one operation among identical concurrent callers, with reference-counted
/// cancellation: the operation is cancelled only when every caller has cancelled.
final class Coalescer: Sendable {
    struct Key: Hashable, Sendable {
        let request: RequestKey
        let type: ObjectIdentifier
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
        let leader: (caller: Int, flightID: Int)? = state.withLock { state in
            guard state.flights[key] == nil else { return nil }
            let caller = state.nextID
            var flight = Flight(id: caller + 1)
            state.nextID += 2
            flight.callers.insert(caller)
            flight.cancel = { lease.cancelTask() }
            state.flights[key] = flight
            return (caller, flight.id)
        }
        guard let leader else {
            return await run(key, operation: operation)
        }
        let stillWanted = lease.intercept { [self] in
            leaderLeaves(key, leader.flightID, leader.caller)
        }
        guard stillWanted else {
            _ = leaderLeaves(key, leader.flightID, leader.caller)
            return nil
        }
        let value = await operation()
        lease.endInterception()
        finish(key, leader.flightID, with: value, leader: leader.caller)
        return value
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
