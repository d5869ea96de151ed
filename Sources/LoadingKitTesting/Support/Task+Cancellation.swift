extension Task {
    /// The task's value, awaited as a child task's would be: when the waiting task is
    /// cancelled — by a test's time limit, say — the task is cancelled too, so a test
    /// whose task never ends fails with its name instead of stalling the run.
    ///
    /// ```swift
    /// let reload = Task { await screen.reload() }
    /// await gate.waitForArrivals()
    /// gate.open()
    /// await reload.valuePropagatingCancellation
    /// ```
    public var valuePropagatingCancellation: Success {
        get async throws {
            try await withTaskCancellationHandler {
                try await value
            } onCancel: {
                cancel()
            }
        }
    }
}

extension Task where Failure == Never {
    /// The task's value, awaited as a child task's would be: when the waiting task is
    /// cancelled — by a test's time limit, say — the task is cancelled too, so a test
    /// whose task never ends fails with its name instead of stalling the run.
    ///
    /// ```swift
    /// let reload = Task { await screen.reload() }
    /// await gate.waitForArrivals()
    /// gate.open()
    /// await reload.valuePropagatingCancellation
    /// ```
    public var valuePropagatingCancellation: Success {
        get async {
            await withTaskCancellationHandler {
                await value
            } onCancel: {
                cancel()
            }
        }
    }
}
