/// How far the download of a response body has come.
///
/// Ask for progress around any load; transports that can report it call the handler
/// as bytes arrive:
///
/// ```swift
/// let episode = try await TransferProgress.observing { progress in
///     print(progress.fractionCompleted ?? 0)
/// } during: {
///     try await webservice.load(Episode.resource(id: 1))
/// }
/// ```
public struct TransferProgress: Sendable, Equatable {
    /// The number of body bytes received so far.
    public var bytesReceived: Int64
    /// The body's length from `Content-Length`, when the server sent it.
    public var expectedBytes: Int64?

    /// Creates a progress report.
    ///
    /// - Parameters:
    ///   - bytesReceived: The number of body bytes received so far.
    ///   - expectedBytes: The body's length from `Content-Length`; `nil` when the
    ///     server did not send it.
    public init(bytesReceived: Int64, expectedBytes: Int64?) {
        self.bytesReceived = bytesReceived
        self.expectedBytes = expectedBytes
    }

    /// The share of the body received, from 0 to 1, or `nil` when the length is
    /// unknown.
    public var fractionCompleted: Double? {
        guard let expectedBytes, expectedBytes > 0 else { return nil }
        return min(1, Double(bytesReceived) / Double(expectedBytes))
    }

    /// Receives progress reports, in order, on a transport's own queue; a load that
    /// returns its value has had every report. On Linux `URLSessionTransport` calls it
    /// on the queue that drives every transfer of its session: keep it short and never
    /// wait in it — hand the work to another queue or actor.
    public typealias Handler = @Sendable (TransferProgress) -> Void

    /// The handler that transports report to for loads started in the current task;
    /// set it with ``observing(_:during:)``.
    ///
    /// A transport of your own reads it when it starts a transfer:
    ///
    /// ```swift
    /// let report = TransferProgress.observer
    /// report?(TransferProgress(bytesReceived: 512, expectedBytes: 1024))
    /// ```
    public static var observer: Handler? { taskObserver?.handler }

    /// The task-local behind ``observer``, holding the handler in a class. Both keep
    /// it from crashing in `swift_task_localValuePush` (Swift 6.3.1, Linux): it stays
    /// inside the module, since a release build of another package pushing a value
    /// onto it directly crashed; and a client built with `-cross-module-optimization`
    /// pushing an optional closure passed null metadata.
    @TaskLocal static var taskObserver: HandlerBox?

    /// What ``taskObserver`` holds: the handler.
    final class HandlerBox: Sendable {
        let handler: Handler

        init(_ handler: @escaping Handler) {
            self.handler = handler
        }
    }

    /// Runs `operation` with `handler` receiving the progress of the transfers it
    /// starts.
    ///
    /// - Parameters:
    ///   - handler: Called with each progress report, on the transport's queue.
    ///   - operation: The work whose transfers are observed.
    /// - Returns: What `operation` returns.
    public static func observing<T: Sendable>(
        _ handler: @escaping Handler,
        during operation: () async throws -> T
    ) async rethrows -> T {
        try await $taskObserver.withValue(HandlerBox(handler), operation: operation)
    }
}
