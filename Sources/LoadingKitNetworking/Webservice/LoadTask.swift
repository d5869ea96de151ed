import Synchronization

/// A load started without awaiting it; cancel it when its outcome is no longer
/// wanted.
///
/// ```swift
/// let task = webservice.load(resource) { result in … }
/// task.cancel()
/// ```
public struct LoadTask: Sendable, Hashable {
    private enum Work: Sendable, Hashable {
        case running(Task<Void, Never>)
        case ended(EndedLoad)
    }

    /// A load that ended before its handle was made: only whether it was cancelled.
    private final class EndedLoad: Sendable, Hashable {
        let isCancelled = Atomic(false)

        static func == (lhs: EndedLoad, rhs: EndedLoad) -> Bool { lhs === rhs }

        func hash(into hasher: inout Hasher) {
            hasher.combine(ObjectIdentifier(self))
        }
    }

    private let work: Work

    /// Wraps a task that performs a load.
    ///
    /// - Parameter task: The task; cancelling the load cancels it.
    public init(_ task: Task<Void, Never>) {
        work = .running(task)
    }

    /// The handle of a load that has already ended — one the policy skipped, say:
    /// ``finish()`` returns at once, without a task.
    ///
    /// ```swift
    /// let task = isCurrent ? LoadTask.finished : screen.startLoading(resource: feed)
    /// ```
    public static var finished: LoadTask {
        LoadTask(work: .ended(EndedLoad()))
    }

    private init(work: Work) {
        self.work = work
    }

    /// Cancels the load; its completion, if any, reports the cancellation.
    public func cancel() {
        switch work {
        case .running(let task): task.cancel()
        case .ended(let load): load.isCancelled.store(true, ordering: .relaxed)
        }
    }

    /// Whether ``cancel()`` has been called.
    public var isCancelled: Bool {
        switch work {
        case .running(let task): task.isCancelled
        case .ended(let load): load.isCancelled.load(ordering: .relaxed)
        }
    }

    /// Waits until the load has ended — its outcome delivered, or the load superseded
    /// or cancelled — on the caller's actor; a load that has ended returns at once. A
    /// superseded or cancelled load ends at once, even when the request it started goes
    /// on for others that share it: that answer, and its events, may come later. When
    /// the waiting task is cancelled, returns at once and leaves the load running.
    nonisolated(nonsending) public func finish() async {
        if case .running(let task) = work {
            await task.waitForEnd()
        }
    }
}
