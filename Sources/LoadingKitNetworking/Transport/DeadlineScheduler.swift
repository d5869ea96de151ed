/// Runs actions at deadlines on a clock with one sleeping task for all of
/// them: registering and cancelling a deadline takes a lock, not a task, so a
/// deadline per request is cheap.
///
/// The sleeper sleeps until the earliest deadline it was started for. A deadline that
/// is later than the pending wake-up needs no new sleeper: on waking, the sleeper runs
/// what is due and sleeps again until the earliest deadline left. With requests of
/// one timeout, deadlines come in order, so one sleeper serves them all.
final class DeadlineScheduler: Sendable {
    private struct Entry {
        let deadline: ContinuousClock.Instant
        let action: @Sendable () -> Void
    }

    private struct State {
        var nextID = 0
        var entries: [Int: Entry] = [:]
        /// When the earliest sleeper wakes; `nil` when none sleeps.
        var wake: ContinuousClock.Instant?
    }

    private let clock: any Clock<Duration>
    private let state = Locked(State())

    init(clock: any Clock<Duration>) {
        self.clock = clock
    }

    /// Runs `action` once `deadline` has passed, unless cancelled first; returns the
    /// number to cancel it with.
    func schedule(
        at deadline: ContinuousClock.Instant,
        _ action: @escaping @Sendable () -> Void
    ) -> Int {
        let (id, sleepsUntil) = state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            state.entries[id] = Entry(deadline: deadline, action: action)
            guard state.wake.map({ deadline < $0 }) ?? true else {
                return (id, ContinuousClock.Instant?.none)
            }
            state.wake = deadline
            return (id, deadline)
        }
        if let sleepsUntil {
            sleep(until: sleepsUntil)
        }
        return id
    }

    /// Forgets deadline `id`; its action will not run.
    func cancel(_ id: Int) {
        state.withLock { _ = $0.entries.removeValue(forKey: id) }
    }

    private func sleep(until target: ContinuousClock.Instant) {
        let clock = self.clock
        Task { [weak self] in
            try? await clock.sleep(untilContinuous: target)
            self?.wake(from: target)
        }
    }

    /// Runs what is due and sleeps again until the earliest deadline left, unless an
    /// earlier sleeper will.
    private func wake(from target: ContinuousClock.Instant) {
        let now = clock.continuousNow
        let (due, sleepsUntil) = state.withLock { state in
            if state.wake == target {
                state.wake = nil
            }
            let due = state.entries.filter { $0.value.deadline <= now }
            for id in due.keys {
                state.entries.removeValue(forKey: id)
            }
            guard let earliest = state.entries.values.map(\.deadline).min(),
                state.wake.map({ earliest < $0 }) ?? true
            else { return (due.values.map(\.action), ContinuousClock.Instant?.none) }
            state.wake = earliest
            return (due.values.map(\.action), earliest)
        }
        for action in due {
            action()
        }
        if let sleepsUntil {
            sleep(until: sleepsUntil)
        }
    }
}
