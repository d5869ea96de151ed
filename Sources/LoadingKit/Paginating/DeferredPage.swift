import LoadingKitNetworking

/// A page asked for while the list's load was in flight. The core holds it until that
/// load has ended; then it starts from the pages the load applied, in the same
/// main-actor turn, and every caller that asked for it waits for that page.
final class DeferredPage: Sendable {
    /// The end of the list the page is for.
    let direction: PageDirection
    /// Clears the request from the pagination state and, unless `dropped`, starts the
    /// page.
    private let start: @MainActor @Sendable (_ dropped: Bool) -> LoadStart
    private let outcome = Locked(Outcome())

    private struct Outcome {
        var start: LoadStart?
        var waiters: [CheckedContinuation<LoadStart, Never>] = []
    }

    /// A page toward `direction`, started by `start` once the load in flight ends.
    init(
        direction: PageDirection,
        start: @escaping @MainActor @Sendable (_ dropped: Bool) -> LoadStart
    ) {
        self.direction = direction
        self.start = start
    }

    /// Waits until the page started, or was dropped, and returns how it started.
    func started() async -> LoadStart {
        await withCheckedContinuation { continuation in
            let start = outcome.withLock { outcome in
                if outcome.start == nil {
                    outcome.waiters.append(continuation)
                }
                return outcome.start
            }
            if let start {
                continuation.resume(returning: start)
            }
        }
    }

    /// Starts the page — or, when `dropping`, only clears the request — and hands how
    /// it started to every caller waiting.
    @MainActor
    func resolve(dropping: Bool) {
        hand(start(dropping))
    }

    /// Ends every wait with nothing started: the list is gone. Callable from any thread.
    func abandon() {
        hand(.skipped)
    }

    private func hand(_ start: LoadStart) {
        let waiters = outcome.withLock { outcome in
            guard outcome.start == nil else { return [CheckedContinuation<LoadStart, Never>]() }
            outcome.start = start
            defer { outcome.waiters = [] }
            return outcome.waiters
        }
        for waiter in waiters {
            waiter.resume(returning: start)
        }
    }
}
