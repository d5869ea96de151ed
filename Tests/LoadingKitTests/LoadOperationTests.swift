import LoadingKitNetworking
import Testing

@testable import LoadingKit

/// The bookkeeping of a screen's operation in flight, driven directly: the orders of
/// events that a load's tasks can only produce by chance.
@MainActor
@Suite("Load operations", .timeLimit(.minutes(1)))
struct LoadOperationTests {
    /// An operation numbered `generation` that does nothing.
    private func operation(_ generation: UInt64) -> LoadOperation {
        LoadOperation(generation: generation, identity: nil, cancel: {}, finish: { _ in })
    }

    @Test("an operation whose awaiting task was cancelled ends cancelled, exactly once")
    func cancelledAwaitEndsOnce() {
        let core = LoadingCore<Int>()
        let generation = core.begin()
        core.attach(operation(generation))
        core.cancelAwaited(generation)
        #expect(core.awaitedOperation == nil)
        #expect(core.end(generation) == .cancelled)
        #expect(core.end(generation) == .over)
    }

    @Test("a late cancellation mark of an operation already over leaves the newer one's")
    func lateMarkOfOlderOperation() {
        let core = LoadingCore<Int>()
        let first = core.begin()
        let second = core.begin()
        core.attach(operation(second))
        core.cancelAwaited(second)
        // The first operation's task resumes only now and marks its own cancellation.
        core.cancelAwaited(first)
        #expect(core.end(second) == .cancelled)
    }

    @Test("an operation attached after a newer one began is cancelled, never current")
    func staleAttachIsCancelled() {
        let core = LoadingCore<Int>()
        let first = core.begin()
        let second = core.begin()
        let cancelled = Locked(false)
        core.attach(
            LoadOperation(
                generation: first,
                identity: nil,
                cancel: { cancelled.withLock { $0 = true } }
            ) { _ in }
        )
        #expect(cancelled.withLock { $0 })
        #expect(core.currentOperation == nil)
        core.attach(operation(second))
        #expect(core.end(first) == .over)
        #expect(core.end(second) == .current)
    }
}
