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
    /// The number of each operation's flight.
    private var flightOfOperation: [Int: UInt64] = [:]
    private var nextOperation = 0

    /// How a call answered.
    enum Start {
        /// It started an operation, whose first request is `request`; it is watched.
        case sent(LoadTask, request: Int)
        /// It joined the operation in flight.
        case joined(LoadTask)
        /// It asked for a page that waits for the operation in flight to end.
        case deferred(LoadTask)
        /// It did nothing, and has ended.
        case skipped
    }

    /// Calls `operation` and finds out whether it sent a request, joined the operation
    /// in flight (whose number `flight` reads), asked for a page that `deferred` says
    /// waits for it, or did nothing.
    func start(
        _ operation: () -> LoadTask,
        flight: () -> UInt64?,
        deferred: () -> Bool,
        on transport: HeldTransport
    ) async -> Start {
        let before = flight()
        let arrivals = transport.arrivals
        let task = operation()
        guard let after = flight() else {
            await task.finish()
            return .skipped
        }
        guard after != before else { return deferred() ? .deferred(task) : .joined(task) }
        let id = await firstRequest(after: arrivals, on: transport)
        watch(task, request: id, flight: after)
        return .sent(task, request: id)
    }

    private func firstRequest(after arrivals: Int, on transport: HeldTransport) async -> Int {
        await transport.waitForArrivals(arrivals + 1)
        return transport.pending.map(\.id).max()!
    }

    /// Follows the pages held while the current operation was in flight, once it has
    /// ended: a page the feed no longer holds has started — the one whose page is now
    /// in flight (as `activity` says) becomes an operation, whose first request, the
    /// first after `arrivals`, is returned with the tasks waiting for it — or ended.
    func follow(
        _ held: inout HeldPages,
        stillHeld: (next: Bool, previous: Bool),
        activity: LoadingActivity,
        flight: UInt64?,
        after arrivals: Int,
        on transport: HeldTransport
    ) async -> (request: Int, tasks: [LoadTask])? {
        var started: (request: Int, tasks: [LoadTask])?
        for isNext in [true, false] {
            let tasks = isNext ? held.next : held.previous
            guard let first = tasks.first, !(isNext ? stillHeld.next : stillHeld.previous)
            else { continue }
            if isNext { held.next = [] } else { held.previous = [] }
            let page: LoadingActivity = isNext ? .loadingNextPage : .loadingPreviousPage
            if activity == page, let flight {
                let id = await firstRequest(after: arrivals, on: transport)
                watch(first, request: id, flight: flight)
                started = (id, tasks)
            } else {
                for task in tasks {
                    await task.finish()
                }
            }
        }
        return started
    }

    /// Watches the operation `task` finishes, whose first request is `request`, in
    /// flight `flight`.
    private func watch(_ task: LoadTask, request: Int, flight: UInt64) {
        let operation = nextOperation
        nextOperation += 1
        operationOfRequest[request] = operation
        flightOfOperation[operation] = flight
        Task { @MainActor in
            await task.finish()
            self.ended.insert(operation)
            self.events.increment()
        }
    }

    /// Waits, after `request` was answered while the newest request pending was
    /// `known`, until its operation sends its next request — returned — or ends.
    /// `flight` reads the feed's flight: an operation that was current and no longer
    /// is has ended, and a request that arrives then is a page that waited for it.
    func settle(
        after request: Int,
        known: Int,
        flight: () -> UInt64?,
        on transport: HeldTransport
    ) async -> Int? {
        guard let operation = operationOfRequest[request] else { return nil }
        let wasCurrent = flight() == flightOfOperation[operation]
        while true {
            let seen = events.value
            if ended.contains(operation) {
                return nil
            }
            if let following = transport.pending.map(\.id).max(), following > known,
                !wasCurrent || flight() == flightOfOperation[operation]
            {
                operationOfRequest[following] = operation
                return following
            }
            await events.wait(for: seen + 1)
        }
    }
}

/// The tasks of pages held while an operation was in flight, by direction.
struct HeldPages {
    var next: [LoadTask] = []
    var previous: [LoadTask] = []

    var isEmpty: Bool { next.isEmpty && previous.isEmpty }

    /// Adds the task of a page held toward the end `operation` asks for.
    mutating func add(_ task: LoadTask, for operation: ListOperation) {
        if case .nextPage = operation { next.append(task) } else { previous.append(task) }
    }

    /// Waits for every task: the pages were dropped.
    mutating func finishAll() async {
        for task in next + previous {
            await task.finish()
        }
        self = HeldPages()
    }
}

/// The operations the model tests drive a paged, refreshable list with.
enum ListOperation: CustomStringConvertible {
    case list(LoadPolicy)
    case appear
    case refresh
    case nextPage
    case previousPage

    /// Whether `feed` holds a page this operation asked for until its load ends.
    @MainActor
    func isDeferred(on feed: some Paginating) -> Bool {
        switch self {
        case .nextPage: feed.pagination.isNextPageDeferred
        case .previousPage: feed.pagination.isPreviousPageDeferred
        default: false
        }
    }

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
