extension Task where Success == Void, Failure == Never {
    /// Returns once the task has ended, or at once when the calling task is cancelled —
    /// by a test's time limit, say. The task itself goes on either way.
    nonisolated(nonsending) package func waitForEnd() async {
        guard !Task<Never, Never>.isCancelled else { return }
        let wake = Wake()
        await withTaskCancellationHandler {
            Task<Void, Never>.detached { [self] in
                await self.value
                wake.wake()
            }
            await wake.wait()
        } onCancel: {
            wake.wake()
        }
    }
}

extension Task where Failure == Never {
    /// The task's value, or `nil` when `wait` passes on `clock` first; the task goes on
    /// either way.
    package func value(within wait: Duration, on clock: any Clock<Duration>) async -> Success? {
        let first = Locked<Success??>(nil)
        let wake = Wake()
        let settle: @Sendable (Success?) -> Void = { value in
            let isFirst = first.withLock { first in
                guard first == nil else { return false }
                first = .some(value)
                return true
            }
            if isFirst {
                wake.wake()
            }
        }
        let timer = Task<Void, Never> {
            guard (try? await clock.sleep(for: wait)) != nil else { return }
            settle(nil)
        }
        Task<Void, Never> { settle(await value) }
        await wake.wait()
        timer.cancel()
        return first.withLock { $0 ?? nil }
    }
}
