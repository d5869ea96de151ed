/// The one task that waits for an ``Outbox``'s next try: a try scheduled while it
/// sleeps moves its due time, so nudges leave no sleeping task each. Times are from
/// when the task began to sleep, on the webservice's clock.
///
/// ```swift
/// var timer = RetryTimer(number: 1, on: clock, due: .seconds(1))
/// timer.moveDue(to: .seconds(4))  // true: the task sleeps on once it wakes
/// ```
struct RetryTimer: Sendable {
    /// What a timer finds when its task wakes.
    enum Waking: Equatable {
        /// Made void: no try.
        case void
        /// The try is due.
        case due
        /// The try was moved: the task sleeps this much longer.
        case early(Duration)
    }

    /// Which timer this is: one that finds another in its place ends.
    let number: UInt64
    /// The time since the task began to sleep.
    private let elapsed: @Sendable () -> Duration
    /// When the task wakes next.
    private(set) var wakes: Duration
    /// When the try is due; `nil` when made void.
    var due: Duration?

    /// A timer whose task sleeps from now until `due` on `clock`.
    ///
    /// - Parameters:
    ///   - number: Which timer this is.
    ///   - clock: The clock the task sleeps on.
    ///   - due: How long from now the try is due.
    init(number: UInt64, on clock: any Clock<Duration>, due: Duration) {
        self.number = number
        self.elapsed = Self.stopwatch(on: clock)
        self.wakes = due
        self.due = due
    }

    /// Moves the try to `wait` from now when the task wakes by then; returns whether
    /// it did — else a timer that wakes sooner is needed.
    ///
    /// - Parameter wait: How long from now the try is due.
    mutating func moveDue(to wait: Duration) -> Bool {
        let moved = elapsed() + wait
        guard moved >= wakes else { return false }
        due = moved
        return true
    }

    /// What the task finds as it wakes; a try moved later makes it sleep again.
    mutating func wake() -> Waking {
        guard let due else { return .void }
        let now = elapsed()
        guard due > now else { return .due }
        wakes = due
        return .early(due - now)
    }

    private static func stopwatch<C: Clock<Duration>>(on clock: C) -> @Sendable () -> Duration {
        let start = clock.now
        return { start.duration(to: clock.now) }
    }
}
