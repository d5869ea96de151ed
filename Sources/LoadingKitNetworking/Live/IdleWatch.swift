/// Watches a connection for silence: it returns when no byte came for its idle
/// timeout, by the webservice's clock, or when its task is cancelled.
///
/// ```swift
/// let watch = IdleWatch(clock: clock, timeout: .seconds(45))
/// group.addTask { await watch.run() }  // beside the reading, which calls
/// watch.touch()                        // at each chunk
/// ```
final class IdleWatch: Sendable {
    private struct State {
        var lastByte: ContinuousClock.Instant
        var hasFired = false
    }

    private let state: Locked<State>
    private let clock: any Clock<Duration>
    private let timeout: Duration

    init(clock: any Clock<Duration>, timeout: Duration) {
        self.clock = clock
        self.timeout = timeout
        state = Locked(State(lastByte: clock.continuousNow))
    }

    /// Sleeps until the last byte's time plus the timeout, again while bytes came
    /// meanwhile; returns once the connection was silent that long (``hasFired``) or
    /// the task is cancelled.
    func run() async {
        var deadline = state.withLock { $0.lastByte }.advanced(by: timeout)
        while true {
            do {
                try await clock.sleep(untilContinuous: deadline)
            } catch {
                return
            }
            let now = clock.continuousNow
            let next: ContinuousClock.Instant? = state.withLock { state in
                let due = state.lastByte.advanced(by: timeout)
                guard due <= now else { return due }
                state.hasFired = true
                return nil
            }
            guard let next else { return }
            deadline = next
        }
    }

    /// Notes a byte received now.
    func touch() {
        let now = clock.continuousNow
        state.withLock { $0.lastByte = now }
    }

    /// Whether the connection was given up as silent.
    var hasFired: Bool { state.withLock { $0.hasFired } }
}
