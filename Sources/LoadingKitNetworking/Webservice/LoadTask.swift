/// A load started without awaiting it; cancel it when its outcome is no longer
/// wanted.
///
/// ```swift
/// let task = webservice.load(resource) { result in … }
/// task.cancel()
/// ```
public struct LoadTask: Sendable, Hashable {
    private let task: Task<Void, Never>

    /// Wraps a task that performs a load.
    ///
    /// - Parameter task: The task; cancelling the load cancels it.
    public init(_ task: Task<Void, Never>) {
        self.task = task
    }

    /// Cancels the load; its completion, if any, reports the cancellation.
    public func cancel() {
        task.cancel()
    }

    /// Whether ``cancel()`` has been called.
    public var isCancelled: Bool { task.isCancelled }

    /// Waits until the load and its bookkeeping have finished.
    public func finish() async {
        await task.value
    }
}
