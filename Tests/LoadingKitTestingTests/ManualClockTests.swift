import Foundation
import LoadingKitTesting
import Testing

/// Code written against any `Clock<Duration>`, as a user's own would be.
func pollThreeTimes(every interval: Duration, on clock: some Clock<Duration>) async throws -> Int {
    var polls = 0
    for _ in 1...3 {
        try await clock.sleep(for: interval)
        polls += 1
    }
    return polls
}

@Suite("ManualClock", .timeLimit(.minutes(1)))
struct ManualClockTests {
    let clock = ManualClock()

    @Test(
        "a wait for sleepers that never come ends when its task is cancelled, as a time limit does, before or while it waits"
    )
    func waitEndsOnCancellation() async {
        let waiting = Task { [clock] in
            await clock.waitForSleepers(5)
            return Task.isCancelled
        }
        let sleeper = Task { [clock] in try? await clock.sleep(for: .seconds(1)) }
        await clock.waitForSleepers(1)  // the waiting task has had time to start waiting, or not
        waiting.cancel()
        #expect(await waiting.valuePropagatingCancellation)

        let cancelledFirst = Task { [clock] in
            withUnsafeCurrentTask { $0?.cancel() }
            await clock.waitForSleepers(5)
            return clock.sleeperCount
        }
        #expect(await cancelledFirst.valuePropagatingCancellation == 1)
        clock.advance(by: .seconds(1))
        await sleeper.valuePropagatingCancellation
    }

    @Test("waiting until tasks sleep at once counts no sleep that was cancelled")
    func waitUntilSleeping() async {
        let first = Task { [clock] in try? await clock.sleep(for: .seconds(1)) }
        let replaced = Task { [clock] in try? await clock.sleep(for: .seconds(1)) }
        await clock.waitForSleepers(2)
        replaced.cancel()
        await replaced.valuePropagatingCancellation
        #expect(clock.sleeperCount == 1)  // two sleeps started: a count of them would end here

        let waiting = Task { [clock] in
            await clock.waitUntilSleeping(2)
            return clock.sleeperCount
        }
        let second = Task { [clock] in try? await clock.sleep(for: .seconds(1)) }

        #expect(await waiting.valuePropagatingCancellation == 2)
        clock.advance(by: .seconds(1))
        await first.valuePropagatingCancellation
        await second.valuePropagatingCancellation
    }

    @Test("it is a Clock: generic code sleeps on it, and advancing wakes the sleeper")
    func isAClock() async throws {
        let start = clock.now
        let sleeper = Task { [clock] in try await clock.sleep(for: .seconds(5)) }
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(4))
        #expect(clock.sleeperCount == 1)
        clock.advance(by: .seconds(1))
        try await sleeper.valuePropagatingCancellation
        #expect(start.duration(to: clock.now) == .seconds(5))
        #expect(clock.minimumResolution == .zero)
    }

    @Test("run(sleeps:) runs through sleeps started by the tasks it wakes")
    func runThroughSleeps() async throws {
        let polling = Task { [clock] in try await pollThreeTimes(every: .seconds(30), on: clock) }
        await clock.run(sleeps: 3)
        #expect(try await polling.valuePropagatingCancellation == 3)
        #expect(clock.sleeps == [.seconds(30), .seconds(30), .seconds(30)])
        #expect(clock.elapsed == .seconds(90))
    }

    @Test("run(sleeps:) counts a sleep already started when it is called")
    func runFromASleepInProgress() async throws {
        let polling = Task { [clock] in try await pollThreeTimes(every: .seconds(30), on: clock) }
        await clock.waitForSleepers(1)
        await clock.run(sleeps: 3)
        #expect(try await polling.valuePropagatingCancellation == 3)
        #expect(clock.elapsed == .seconds(90))
    }

    @Test("advance(to:) moves to an instant; the past and negative durations move nothing")
    func advanceTo() {
        let start = clock.now
        clock.advance(to: start.advanced(by: .seconds(3)))
        clock.advance(to: start)
        clock.advance(by: .seconds(-1))
        #expect(clock.elapsed == .seconds(3))
        #expect(clock.currentDate == Date(timeIntervalSince1970: 1_800_000_003))
    }

    @Test("a cancelled sleeper throws at once")
    func cancelledSleeper() async {
        let sleeper = Task { [clock] in try await clock.sleep(for: .seconds(1)) }
        await clock.waitForSleepers(1)
        sleeper.cancel()
        await #expect(throws: CancellationError.self) {
            try await sleeper.valuePropagatingCancellation
        }
        #expect(clock.sleeperCount == 0)
    }
}
