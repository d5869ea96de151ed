import LoadingKit
import LoadingKitTesting

/// Follows the operations a model test starts through a `HeldTransport`, so that after
/// answering a request the test knows what followed: the operation's next request, or
/// its end. An operation may also end before its request is answered (superseded or
/// cancelled, a waiter leaves a shared request at once), so the tracker re-checks on
/// every event rather than counting them.
@MainActor
final class OperationTracker {
    /// Counts request arrivals and the ends of operations; give it to the transport.
    let events = CounterSignal()
    private var ended: Set<Int> = []
    private var operationOfRequest: [Int: Int] = [:]
    private var nextOperation = 0

    /// How a call answered.
    enum Start {
        /// It started an operation, whose first request is `request`; it is watched.
        case sent(LoadTask, request: Int)
        /// It joined the operation in flight.
        case joined(LoadTask)
        /// It did nothing, and has ended.
        case skipped
    }

    /// Calls `operation` and finds out whether it sent a request, joined the operation
    /// in flight (whose number `flight` reads) or did nothing.
    func start(
        _ operation: () -> LoadTask,
        flight: () -> UInt64?,
        on transport: HeldTransport
    ) async -> Start {
        let before = flight()
        let arrivals = transport.arrivals
        let task = operation()
        guard let after = flight() else {
            await task.finish()
            return .skipped
        }
        guard after != before else { return .joined(task) }
        await transport.waitForArrivals(arrivals + 1)
        let id = transport.pending.map(\.id).max()!
        watch(task, request: id)
        return .sent(task, request: id)
    }

    /// Watches the operation `task` finishes, whose first request is `request`.
    private func watch(_ task: LoadTask, request: Int) {
        let operation = nextOperation
        nextOperation += 1
        operationOfRequest[request] = operation
        Task { @MainActor in
            await task.finish()
            self.ended.insert(operation)
            self.events.increment()
        }
    }

    /// Waits, after `request` was answered while the newest request pending was
    /// `known`, until its operation sends its next request — returned — or ends.
    func settle(after request: Int, known: Int, on transport: HeldTransport) async -> Int? {
        guard let operation = operationOfRequest[request] else { return nil }
        while true {
            let seen = events.value
            if let following = transport.pending.map(\.id).max(), following > known {
                operationOfRequest[following] = operation
                return following
            }
            if ended.contains(operation) {
                return nil
            }
            await events.wait(for: seen + 1)
        }
    }
}

/// The operations the model tests drive a paged, refreshable list with.
enum ListOperation: CustomStringConvertible {
    case list(LoadPolicy)
    case appear
    case refresh
    case nextPage
    case previousPage

    /// Starts the operation on `feed` without waiting.
    @MainActor
    func start(on feed: some Paginating & Refreshable) -> LoadTask {
        switch self {
        case .list(let policy): feed.startLoadingFirstPage(policy: policy)
        case .appear: feed.loadingDidAppear() ?? .finished
        case .refresh: feed.startRefreshing()
        case .nextPage: feed.startLoadingNextPage()
        case .previousPage: feed.startLoadingPreviousPage()
        }
    }

    var description: String {
        switch self {
        case .list(let policy): "list \(policy)"
        case .appear: "appear"
        case .refresh: "refresh"
        case .nextPage: "next page"
        case .previousPage: "previous page"
        }
    }
}
