/// How a request to load was answered.
enum LoadStart: Sendable {
    /// Nothing to do: the policy found the content good enough.
    case skipped
    /// A load already in flight serves the request.
    case joined(LoadFlight)
    /// A new load started.
    case started(LoadFlight)
    /// A page that starts when the load in flight has ended.
    case deferred(DeferredPage)

    /// Waits for the load to end and its outcome to be applied. Cancelling the
    /// waiting task cancels a load it started, never one it joined.
    @MainActor
    func finish() async {
        switch self {
        case .skipped: return
        case .joined(let flight): await flight.finish(false)
        case .started(let flight): await flight.finish(true)
        case .deferred(let page): await page.started().finish()
        }
    }

    /// A task that finishes the load, for callers that do not wait.
    @MainActor
    var task: LoadTask {
        if case .skipped = self {
            return .finished
        }
        return LoadTask(Task { @MainActor in await finish() })
    }
}
