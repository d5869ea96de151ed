/// A ``LoadingMonitor`` that hands events to an `AsyncStream`, to be read in a task of
/// your own: recording costs the caller a buffer append.
///
/// ```swift
/// let stream = LoadingEventStream()
/// let webservice = Webservice(configuration: .init(monitor: stream))
/// Task {
///     for await event in stream.events where event.loader == nil {
///         metrics.count(event)
///     }
/// }
/// ```
///
/// The stream has one reader; it ends when the monitor is released.
public final class LoadingEventStream: LoadingMonitor {
    /// The events, in the order they were recorded.
    public let events: AsyncStream<LoadingEvent>
    private let continuation: AsyncStream<LoadingEvent>.Continuation

    /// Creates a stream that keeps at most `limit` unread events, dropping the oldest.
    ///
    /// - Parameter limit: How many unread events are kept; 1,000 by default.
    public init(bufferingNewest limit: Int = 1_000) {
        (events, continuation) = AsyncStream.makeStream(
            of: LoadingEvent.self,
            bufferingPolicy: .bufferingNewest(limit)
        )
    }

    deinit {
        continuation.finish()
    }

    /// Appends the event to the stream.
    ///
    /// - Parameter event: The event to hand on.
    public func record(_ event: LoadingEvent) {
        continuation.yield(event)
    }
}
