import Foundation
import LoadingKitNetworking

/// A clock that moves only when the test says, for exact and instant tests of
/// backoff, `Retry-After` and freshness.
///
/// ```swift
/// let clock = ManualClock()
/// let webservice = Webservice(transport: mock, configuration: .init(retry: .standard, clock: clock))
/// let load = Task { try await webservice.load(resource) }
/// await clock.waitForSleepers(1)      // the first retry is waiting
/// clock.advance(by: .milliseconds(500))
/// ```
///
/// Sleepers wake, in deadline order, when time reaches their deadline; a cancelled
/// sleeper throws `CancellationError` at once. Every requested sleep is recorded.
public final class ManualClock: LoadingClock {
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
    }

    private let state = Locked(State())
    private let sleepsStarted = CounterSignal()
    private let origin: ContinuousClock.Instant
    private let originDate: Date

    /// Creates a clock standing at `date` on the wall clock.
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

    /// How much time has been advanced since the clock was made.
    public var elapsed: Duration { state.withLock { $0.elapsed } }

    /// The duration of every sleep requested, in order.
    public var sleeps: [Duration] { state.withLock { $0.sleeps } }

    /// How many tasks are sleeping now.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// Suspends until the clock reaches `deadline`.
    public func sleep(until deadline: ContinuousClock.Instant) async throws {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            state.sleeps.append(now(state).duration(to: deadline))
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let wake: Result<Void, any Error>? = state.withLock { state in
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
    public func advance(by duration: Duration) {
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

    /// Moves time to the latest deadline of the current sleepers, waking them all.
    public func run() {
        let latest = state.withLock { state in
            state.sleepers.values.map { now(state).duration(to: $0.deadline) }.max()
        }
        advance(by: latest ?? .zero)
    }

    /// Returns once `count` sleeps in all have started (or ended at once).
    public func waitForSleepers(_ count: Int) async {
        await sleepsStarted.wait(for: count)
    }

    private func now(_ state: State) -> ContinuousClock.Instant {
        origin.advanced(by: state.elapsed)
    }
}
