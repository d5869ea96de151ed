import Dispatch
import Foundation
import LoadingKit
import LoadingKitTesting

/// What happened to a screen, kept apart from it so that it outlives the screen.
@MainActor
final class ScreenLog {
    var configured: [String] = []
    var failures: [LoadingError] = []
    var cancellations = 0
    var transitions: [(from: LoadingActivity, to: LoadingActivity)] = []
    var configuredOffMain = false

    /// Marks the main queue, which runs the main actor: on Linux under `swift test`
    /// it is drained by a thread `Thread.isMainThread` does not call main.
    nonisolated static let mainQueueKey: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    static var isOnMainQueue: Bool { DispatchQueue.getSpecific(key: mainQueueKey) == true }
}

/// A `Loading` conformer whose every call is logged.
@MainActor
final class RecordingScreen: Loading {
    let loading = LoadingCore<Episode>()
    let webservice: Webservice
    let log: ScreenLog
    var rejectsTitle: String?
    var resource: Resource<Episode>?
    var cancelsLoadingOnDisappear = false

    init(
        transport: any Transport,
        log: ScreenLog = ScreenLog(),
        monitor: (any LoadingMonitor)? = nil
    ) {
        self.webservice = Webservice(transport: transport, configuration: .init(monitor: monitor))
        self.log = log
    }

    func configure(value: Episode) {
        log.configuredOffMain = log.configuredOffMain || !ScreenLog.isOnMainQueue
        log.configured.append(value.title)
    }

    func validate(_ value: Episode) throws {
        if value.title == rejectsTitle {
            throw Rejection(title: value.title)
        }
    }

    func loadingStateDidChange(
        from oldState: LoadingState<Episode>,
        to newState: LoadingState<Episode>
    ) {
        log.transitions.append((oldState.activity, newState.activity))
    }

    func loadDidFail(_ error: LoadingError) {
        log.failures.append(error)
    }

    func loadWasCancelled() {
        log.cancellations += 1
    }

    struct Rejection: Error, CustomStringConvertible {
        let title: String
        var description: String { "title \(title) is not allowed" }
    }
}

/// A `Loading` conformer of a list, to see empty values.
@MainActor
final class ListScreen: Loading {
    let loading = LoadingCore<[Episode]>()
    let webservice: Webservice
    var configuresEmptyValues = false
    private(set) var configured: [[Episode]] = []

    init(transport: any Transport) {
        self.webservice = Webservice(transport: transport)
    }

    func configure(value: [Episode]) {
        configured.append(value)
    }
}

extension LoadingState {
    /// Whether this state is `before` as a cancellation leaves it: the same content,
    /// error and times, nothing in flight, and the cancellation recorded.
    func isRestored(from before: LoadingState) -> Bool where Value: Equatable {
        content == before.content && error == before.error && isEmpty == before.isEmpty
            && loadedAt == before.loadedAt && failedAt == before.failedAt
            && activity == .idle && progress == nil && wasCancelled
    }
}
