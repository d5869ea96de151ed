import LoadingKitTesting

@testable import LoadingKit

/// Follows the operations a model test starts through a `HeldTransport`, so that after
/// answering a request the test knows what followed: the operation's next request, or
/// its end. An operation may also end before its request is answered (superseded or
/// cancelled, its waiters return at once), or without sending one (it took the answer
/// of a request that ended on the way), so the tracker re-checks on every event rather
/// than counting them.
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
        /// It started an operation, superseding any in flight, that ended without a
        /// request: a superseded request of the same resource ended on the way, after
        /// the operation was decided, and the operation took its answer.
        case answeredOnTheWay
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
        let operation = watch(task, flight: after)
        guard
            let id = await firstRequest(
                of: operation,
                after: arrivals,
                flight: flight,
                on: transport
            )
        else {
            return .answeredOnTheWay
        }
        return .sent(task, request: id)
    }

    /// Waits for the first request of `operation` after `arrivals` requests in all —
    /// returned — or for its end without one. A request that arrives once the feed's
    /// flight (which `flight` reads) is another is not the operation's: it ended, and a
    /// page held for it started. Nor is one no caller wants: a superseded operation's
    /// work sent it before it saw its cancellation.
    private func firstRequest(
        of operation: Int,
        after arrivals: Int,
        flight: () -> UInt64?,
        on transport: HeldTransport
    ) async -> Int? {
        while true {
            let seen = events.value
            if transport.arrivals > arrivals, flight() == flightOfOperation[operation],
                let id = transport.pending.filter(\.isWanted).map(\.id).max(), id >= arrivals
            {
                operationOfRequest[id] = operation
                return id
            }
            if ended.contains(operation) {
                return nil
            }
            await events.wait(for: seen + 1)
        }
    }

    /// Follows the pages held while the current operation was in flight, once it has
    /// ended: a page the feed no longer holds (as `feed` says) has started — the one
    /// whose page is now in flight becomes an operation, whose first request, the first
    /// after `arrivals`, is returned with the tasks waiting for it — or ended. A page
    /// that took an answer on the way ends at once, and the page held after it starts:
    /// so the pages are followed until none changes.
    func follow(
        _ held: inout HeldPages,
        feed: () -> HeldPageView,
        after arrivals: Int,
        on transport: HeldTransport
    ) async -> (request: Int, tasks: [LoadTask])? {
        var started: (request: Int, tasks: [LoadTask])?
        var changed = true
        while changed {
            changed = false
            for isNext in [true, false] {
                let tasks = isNext ? held.next : held.previous
                let now = feed()
                guard let first = tasks.first, !(isNext ? now.isNextHeld : now.isPreviousHeld)
                else { continue }
                changed = true
                if isNext { held.next = [] } else { held.previous = [] }
                let page: LoadingActivity = isNext ? .loadingNextPage : .loadingPreviousPage
                if now.activity == page, let flight = now.flight {
                    let operation = watch(first, flight: flight)
                    let request = await firstRequest(
                        of: operation,
                        after: arrivals,
                        flight: { feed().flight },
                        on: transport
                    )
                    if let id = request {
                        started = (id, tasks)
                        continue
                    }
                }
                for task in tasks {
                    await task.finish()
                }
            }
        }
        return started
    }

    /// Watches the operation `task` finishes, in flight `flight`; returns its number.
    private func watch(_ task: LoadTask, flight: UInt64) -> Int {
        let operation = nextOperation
        nextOperation += 1
        flightOfOperation[operation] = flight
        Task { @MainActor in
            await task.finish()
            self.ended.insert(operation)
            self.events.increment()
        }
        return operation
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
            if let following = transport.pending.filter(\.isWanted).map(\.id).max(),
                following > known,
                !wasCurrent || flight() == flightOfOperation[operation]
            {
                operationOfRequest[following] = operation
                return following
            }
            await events.wait(for: seen + 1)
        }
    }
}

/// What the tracker reads of a feed to follow the pages it held.
struct HeldPageView {
    let isNextHeld: Bool
    let isPreviousHeld: Bool
    let activity: LoadingActivity
    /// The number of the feed's flight, if one is in flight.
    let flight: UInt64?

    @MainActor
    init<Feed: Paginating>(of feed: Feed) {
        isNextHeld = feed.pagination.isNextPageDeferred
        isPreviousHeld = feed.pagination.isPreviousPageDeferred
        activity = feed.loadingState.activity
        flight = feed.loading.currentOperation?.generation
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
