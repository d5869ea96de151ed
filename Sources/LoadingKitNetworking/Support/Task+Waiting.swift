extension Task where Success == Void, Failure == Never {
    /// Returns once the task has ended, or at once when the calling task is cancelled —
    /// by a test's time limit, say. The task itself goes on either way.
    nonisolated(nonsending) package func waitForEnd() async {
        guard !Task<Never, Never>.isCancelled else { return }
        let ended = OneShot<Void>()
        await withTaskCancellationHandler {
            Task<Void, Never>.detached { [self] in
                await self.value
                ended.fire(())
            }
            await ended.wait()
        } onCancel: {
            ended.fire(())
        }
    }
}

extension Task where Failure == Never {
    /// The task's value, or `nil` when `wait` passes on `clock` first; the task goes on
    /// either way.
    package func value(within wait: Duration, on clock: any Clock<Duration>) async -> Success? {
        let first = OneShot<Success?>()
        let timer = Task<Void, Never> {
            guard (try? await clock.sleep(for: wait)) != nil else { return }
            first.fire(nil)
        }
        Task<Void, Never> { first.fire(await self.value) }
        let answer = await first.wait()
        timer.cancel()
        return answer
    }
}
