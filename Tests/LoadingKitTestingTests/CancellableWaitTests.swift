import Dispatch
import LoadingKitNetworking
import LoadingKitTesting
import Testing

/// An actor whose completion is awaited from inside it.
private actor Inbox {
    var delivered: [Int] = []

    /// Awaits a completion started on this actor, checking that it started here.
    func receive(_ value: Int) async -> Int? {
        await callback { reply in
            self.assertIsolated()
            delivered.append(value)
            DispatchQueue.global().async { reply(value) }
        }
    }
}

@Suite("Waits that end when the test is cancelled", .timeLimit(.minutes(1)))
struct CancellableWaitTests {
    @Test("a completion awaited from an actor starts on that actor and returns its value")
    func callbackOnAnActor() async {
        let inbox = Inbox()
        #expect(await inbox.receive(7) == 7)
        #expect(await inbox.delivered == [7])
    }

    @Test("a completion that never comes returns nil once its task is cancelled")
    func callbackCancelled() async {
        let started = CounterSignal()
        let waiting = Task {
            await callback { (_: @escaping @Sendable (Int) -> Void) in started.increment() }
        }
        await started.wait(for: 1)
        waiting.cancel()
        #expect(await waiting.valuePropagatingCancellation == nil)
    }

    @Test("a semaphore's signal ends the wait")
    func semaphoreSignalled() async {
        let semaphore = DispatchSemaphore(value: 0)
        DispatchQueue.global().async { semaphore.signal() }
        #expect(await semaphore.signalled())
    }

    @Test(
        "a wait for a semaphore cancelled before or while it waits returns false, and a later signal reaches the next waiter"
    )
    func semaphoreCancelled() async {
        let semaphore = DispatchSemaphore(value: 0)
        let started = CounterSignal()
        let waiting = Task {
            started.increment()
            return await semaphore.signalled()
        }
        await started.wait(for: 1)  // the wait has begun, or is about to
        waiting.cancel()
        #expect(await waiting.valuePropagatingCancellation == false)
        semaphore.signal()
        #expect(await semaphore.signalled())
    }
}
