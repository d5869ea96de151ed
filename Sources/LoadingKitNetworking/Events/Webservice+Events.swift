import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension Webservice {
    /// Hands `kind`, about a request of `resource`, to the monitor; builds nothing when
    /// there is none.
    func report<A>(_ kind: @autoclosure () -> LoadingEvent.Kind, about resource: Resource<A>) {
        guard let monitor = configuration.monitor else { return }
        monitor.record(
            LoadingEvent(kind: kind(), method: resource.method, url: resource.request.url)
        )
    }

    /// Hands `kind`, about a load of `identity` decided by a loader of type `loader`,
    /// to the monitor; builds nothing when there is none.
    package func report(
        _ kind: @autoclosure () -> LoadingEvent.Kind,
        about identity: ResourceIdentity?,
        loader: Any.Type
    ) {
        guard let monitor = configuration.monitor else { return }
        let event = LoadingEvent(
            kind: kind(),
            method: identity?.method ?? .get,
            url: identity?.url,
            loader: String(describing: loader)
        )
        monitor.record(event)
    }

    /// Reports `failure` of a request of `resource` sent at `started` — as a
    /// cancellation when it is one — and returns it.
    func reportFailure<A, Success>(
        _ failure: WebserviceError,
        of resource: Resource<A>,
        since started: ContinuousClock.Instant?
    ) -> Result<Success, WebserviceError> {
        if let started {
            if case .cancelled = failure {
                report(.cancelled, about: resource)
            } else {
                let duration = started.duration(to: configuration.clock.continuousNow)
                report(.failed(failure, duration: duration), about: resource)
            }
        }
        return .failure(failure)
    }
}

/// Where a parse tells what it made of a `Link` header — a target refused, values
/// unreadable: to the monitor of the webservice parsing, bound only while one listens.
package enum LinkReports {
    /// Reports an event of the parse; `nil` when nobody listens.
    package static var report: (@Sendable (LoadingEvent.Kind) -> Void)? { listener?.report }

    /// Runs `operation` with `report` told of what its parse reports.
    ///
    /// - Parameters:
    ///   - report: Told of each event.
    ///   - operation: The parse.
    /// - Returns: What `operation` returns.
    static func reporting<T>(
        to report: @escaping @Sendable (LoadingEvent.Kind) -> Void,
        during operation: () throws -> T
    ) rethrows -> T {
        try $listener.withValue(ReportBox(report), operation: operation)
    }

    /// The task-local behind ``report``, holding the closure in a class: a client
    /// built with `-cross-module-optimization` pushing an optional closure crashed in
    /// `swift_task_localValuePush`, its metadata null (Swift 6.3.1, Linux).
    @TaskLocal static var listener: ReportBox?

    /// What ``listener`` holds: the report.
    final class ReportBox: Sendable {
        let report: @Sendable (LoadingEvent.Kind) -> Void

        init(_ report: @escaping @Sendable (LoadingEvent.Kind) -> Void) {
            self.report = report
        }
    }
}
