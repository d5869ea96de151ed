import LoadingKitNetworking

/// A `LoadingMonitor` that keeps every event, for tests that check what the kit
/// decided.
///
/// ```swift
/// let recorder = EventRecorder()
/// let webservice = Webservice(transport: mock, configuration: .init(monitor: recorder))
/// _ = try await webservice.load(feed)
/// #expect(recorder.lines == ["→ GET https://api.example.com/feed", …])
/// ```
public final class EventRecorder: LoadingMonitor {
    private let recorded = Locked<[LoadingEvent]>([])
    private let count = CounterSignal()

    /// An empty recorder.
    public init() {}

    /// The events so far, in order.
    public var events: [LoadingEvent] { recorded.withLock { $0 } }

    /// The events so far as `LoadingEvent.line(showingQueryValues:)` writes them,
    /// query values shown.
    public var lines: [String] { events.map { $0.line(showingQueryValues: true) } }

    /// Keeps the event.
    ///
    /// - Parameter event: The event to keep.
    public func record(_ event: LoadingEvent) {
        recorded.withLock { $0.append(event) }
        count.increment()
    }

    /// Returns once `count` events in all have been recorded, forgotten ones included —
    /// or once the calling task is cancelled, as by a test's time limit.
    ///
    /// - Parameter count: How many events to wait for.
    public func waitForEvents(_ count: Int) async {
        await self.count.wait(for: count)
    }

    /// Returns once `count` of the events recorded, forgotten ones aside, are ones
    /// `isMatching` picks — or once the calling task is cancelled.
    ///
    /// ```swift
    /// await recorder.waitForEvents(2) { $0.kind == .waitingForMutation }
    /// ```
    ///
    /// - Parameters:
    ///   - count: How many matching events to wait for.
    ///   - isMatching: Whether an event counts.
    public func waitForEvents(
        _ count: Int,
        where isMatching: @Sendable (LoadingEvent) -> Bool
    ) async {
        var total = self.count.value
        while events.count(where: isMatching) < count, !Task.isCancelled {
            total += 1
            await self.count.wait(for: total)
        }
    }

    /// Forgets the events so far.
    public func removeAll() {
        recorded.withLock { $0.removeAll() }
    }
}
