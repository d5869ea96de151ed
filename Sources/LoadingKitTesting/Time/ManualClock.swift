import Foundation
import LoadingKitNetworking

/// A `Clock` that moves only when the test says, for exact and instant tests of
/// backoff, `Retry-After`, deadlines and freshness — in the kit or in your own code.
///
/// ```swift
/// let clock = ManualClock()
/// let webservice = Webservice(transport: mock, configuration: .init(retry: .standard, clock: clock))
/// let load = Task { try await webservice.load(resource) }
/// await clock.waitForSleepers(1)      // the first retry is waiting
/// clock.advance(by: .milliseconds(500))
///
/// let twoRetries = Task { try await webservice.load(resource) }
/// await clock.run(sleeps: 2)          // through both backoffs, however long
/// ```
///
/// Its instants are `ContinuousClock.Instant`s, starting at the moment it was made,
/// so `LoadingState.loadedAt` and the kit's deadlines read the same on both clocks.
///
/// Sleepers wake, in deadline order, when time reaches their deadline; a cancelled
/// sleeper throws `CancellationError` at once. Every requested sleep is recorded.
public final class ManualClock: DatedClock {
    /// The clock's instants: those of `ContinuousClock`.
    public typealias Instant = ContinuousClock.Instant

    private struct Sleeper {
        let deadline: ContinuousClock.Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var elapsed = Duration.zero
        var nextID = 0
        var sleepers: [Int: Sleeper] = [:]
        var cancelledBeforeSleeping: Set<Int> = []
        var sleeps: [Duration] = []
        /// Sleeps registered or ended at once, counted in the same step as the sleepers.
        var started = 0
    }

    private let state = Locked(State())
    private let sleepsStarted = CounterSignal()
    private let origin: ContinuousClock.Instant
    private let originDate: Date

    /// Creates a clock standing at `date` on the wall clock.
    ///
    /// - Parameter date: The wall-clock date the clock starts at; `currentDate` moves
    ///   from it as time is advanced.
    public init(date: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        origin = ContinuousClock.now
        originDate = date
    }

    /// The current instant: the clock's origin plus the time advanced.
    public var now: ContinuousClock.Instant { origin.advanced(by: elapsed) }

    /// The wall-clock date: the starting date plus the time advanced.
    public var currentDate: Date {
        let elapsed = self.elapsed
        let seconds =
            Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return originDate.addingTimeInterval(seconds)
    }

    /// The smallest step the clock can tell: none, it moves exactly as told.
    public var minimumResolution: Duration { .zero }

    /// How much time has been advanced since the clock was made.
    public var elapsed: Duration { state.withLock { $0.elapsed } }

    /// The duration of every sleep requested, in order.
    public var sleeps: [Duration] { state.withLock { $0.sleeps } }

    /// How many tasks are sleeping now.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// Suspends until the clock reaches `deadline`, whatever the tolerance.
    ///
    /// - Parameters:
    ///   - deadline: The instant to wake at.
    ///   - tolerance: Ignored: the clock wakes sleepers exactly.
    /// - Throws: `CancellationError` at once when the task is cancelled.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            state.sleeps.append(now(state).duration(to: deadline))
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let wake: Result<Void, any Error>? = state.withLock { state in
                    state.started += 1
                    if state.cancelledBeforeSleeping.remove(id) != nil {
                        return .failure(CancellationError())
                    }
                    if deadline <= now(state) {
                        return .success(())
                    }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return nil
                }
                sleepsStarted.increment()
                if let wake {
                    continuation.resume(with: wake)
                }
            }
        } onCancel: {
            let sleeper = state.withLock { state in
                guard let sleeper = state.sleepers.removeValue(forKey: id) else {
                    state.cancelledBeforeSleeping.insert(id)
                    return Sleeper?.none
                }
                return sleeper
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves time forward by `duration`, waking every sleeper whose deadline it
    /// reaches, earliest first.
    ///
    /// - Parameter duration: How far to move; a negative duration moves nothing.
    public func advance(by duration: Duration) {
        guard duration > .zero else { return }
        let due = state.withLock { state in
            state.elapsed += duration
            let now = now(state)
            let due = state.sleepers.filter { $0.value.deadline <= now }
                .sorted { $0.value.deadline < $1.value.deadline }
            for (id, _) in due {
                state.sleepers.removeValue(forKey: id)
            }
            return due.map(\.value.continuation)
        }
        for continuation in due {
            continuation.resume()
        }
    }

    /// Moves time forward to `instant`, waking every sleeper whose deadline it reaches;
    /// an instant already passed moves nothing.
    ///
    /// - Parameter instant: The instant to move to.
    public func advance(to instant: Instant) {
        advance(by: now.duration(to: instant))
    }

    /// Moves time to the latest deadline of the current sleepers, waking them all.
    public func run() {
        let latest = state.withLock { state in
            state.sleepers.values.map { now(state).duration(to: $0.deadline) }.max()
        }
        advance(by: latest ?? .zero)
    }

    /// Returns once `count` sleeps in all have started (or ended at once) — or once
    /// the calling task is cancelled, as by a test's time limit.
    ///
    /// - Parameter count: How many sleeps, counted since the clock was made.
    public func waitForSleepers(_ count: Int) async {
        await sleepsStarted.wait(for: count)
    }

    /// Returns once `count` tasks sleep on the clock at the same time — or once the
    /// calling task is cancelled. Unlike ``waitForSleepers(_:)``, a sleep cancelled or
    /// over does not count: every poller due has run and waits again.
    ///
    /// ```swift
    /// clock.advance(by: .seconds(30))
    /// await clock.waitUntilSleeping(3)  // each of three screens polled, and waits again
    /// ```
    ///
    /// - Parameter count: How many tasks sleeping at once.
    public func waitUntilSleeping(_ count: Int) async {
        while !Task.isCancelled {
            // Read together: only a sleep that starts after this can make more sleepers.
            let started = state.withLock { state in
                state.sleepers.count >= count ? nil : state.started
            }
            guard let started else { return }
            await sleepsStarted.wait(for: started + 1)
        }
    }

    /// Runs the clock through the next `count` sleeps, including sleeps started by the
    /// tasks it wakes: waits for each to start, then moves time to the earliest deadline
    /// of the sleepers. It
    /// returns once the last of them is woken, so code that sleeps, works and sleeps
    /// again (retries with backoff, polling) runs to the end without a guess at how
    /// long that takes.
    ///
    /// - Parameter count: How many sleeps to wait for and wake.
    public func run(sleeps count: Int) async {
        // The sleeps over already; one asleep now is among the next `count`.
        let ended = state.withLock { $0.started - $0.sleepers.count }
        for next in ended..<ended + count {
            await sleepsStarted.wait(for: next + 1)
            let earliest = state.withLock { state in
                state.sleepers.values.map { now(state).duration(to: $0.deadline) }.min()
            }
            advance(by: earliest ?? .zero)
        }
    }

    private func now(_ state: State) -> ContinuousClock.Instant {
        origin.advanced(by: state.elapsed)
    }
}
