/// Receives the ``LoadingEvent``s of a ``Webservice`` and of the loaders that load
/// through it: for logs, metrics and debugging.
///
/// ```swift
/// struct RequestCounter: LoadingMonitor {
///     let count = Counter()
///     func record(_ event: LoadingEvent) {
///         if case .started = event.kind { count.increment() }
///     }
/// }
/// let webservice = Webservice(configuration: .init(monitor: RequestCounter()))
/// ```
///
/// `record(_:)` is called synchronously where the kit decides — on the main actor for
/// a loader's events but `discarded`, which comes from the fetch's task as it ends, on
/// the request's task for the webservice's — so it must be quick
/// and must not block: hand slow work elsewhere, as ``LoadingEventStream`` does. With
/// no monitor, the kit builds no event at all.
public protocol LoadingMonitor: Sendable {
    /// Receives one event.
    ///
    /// - Parameter event: What the kit did or decided.
    func record(_ event: LoadingEvent)
}
