import Foundation
import LoadingKitTesting
import Testing

@testable import LoadingKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The property of a paged list: for any sequence of first loads, reloads, refreshes,
/// next and previous pages, resets, cancellations and new items on the server, with
/// responses and failures in any order, the content is a contiguous window of the
/// server's list with no item twice, and `pagination` agrees with it.
///
/// The server pages with stable `Link` cursors (`after` and `before` an item), as a
/// list that grows at the head must for a window to stay contiguous.
/// `LOADINGKIT_MODEL_SEQUENCES` and `LOADINGKIT_MODEL_SEED` work as for the
/// interleavings (see ``SeededSequences``).
@MainActor
@Suite("Page window property", .timeLimit(.minutes(30)))
struct WindowPropertyTests {
    @Test("the content is always a contiguous window of the server's list")
    func contiguousWindow() async throws {
        await SeededSequences.expectNoViolations("page windows") { seed in
            var run = WindowRun(seed: seed)
            return await run.run()
        }
    }
}

/// One seeded sequence.
@MainActor
private struct WindowRun {
    private let random: RandomSource
    private let tracker = OperationTracker()
    private let transport: HeldTransport
    private var server = CursorServer()
    private let feed: WindowFeed
    /// The tasks waiting on each request.
    private var waiting: [Int: [LoadTask]] = [:]
    /// The pages asked for while an operation was in flight.
    private var held = HeldPages()
    private var steps: [String] = []

    init(seed: UInt64) {
        random = .seeded(seed &* 0x2545_F491 &+ 7)
        transport = HeldTransport(signalling: tracker.events)
        let limits: [Int?] = [nil, 1, 2, 3]
        feed = WindowFeed(
            webservice: Webservice(transport: transport),
            maxPages: limits[min(3, Int(random.next() * 4))]
        )
    }

    private func pick(_ count: Int) -> Int {
        min(count - 1, Int(random.next() * Double(count)))
    }

    mutating func run() async -> [String] {
        for _ in 0..<(10 + pick(30)) {
            await step()
            if let violation = check() {
                return [
                    "\(violation) after \(steps.suffix(5)), window \(String(describing: feed.maxPages))"
                ]
            }
        }
        while let next = transport.pending.first {
            await answer(next.id, fails: false)
        }
        return check().map { ["\($0) at the end after \(steps.suffix(5))"] } ?? []
    }

    private mutating func step() async {
        let feed = self.feed
        switch pick(100) {
        case 0..<46:
            let roll = pick(46)
            let operation: ListOperation =
                switch roll {
                case 0..<8: .list([LoadPolicy.ifNeeded, .force, .background][pick(3)])
                case 8..<12: .appear
                case 12..<20: .refresh
                case 20..<34: .nextPage
                default: .previousPage
                }
            steps.append("\(operation)")
            await start(operation) { operation.start(on: feed) }
        case 46..<49:
            steps.append("cancel")
            feed.cancelLoading()
            await held.finishAll()
        case 49..<51:
            steps.append("reset")
            feed.resetLoading()
            await held.finishAll()
        case 51..<58:
            let count = 1 + pick(6)
            steps.append("publish \(count)")
            server.publish(count)
        default:
            guard !transport.pending.isEmpty else { return }
            let pending = transport.pending[pick(transport.pending.count)]
            let fails = pick(7) == 0
            steps.append("answer \(pending.id)\(fails ? " 503" : "")")
            await answer(pending.id, fails: fails)
        }
    }

    /// Starts an operation; one that sent a request is watched until it ends.
    private mutating func start(_ kind: ListOperation, _ operation: () -> LoadTask) async {
        let feed = self.feed
        let flight = { feed.loading.currentOperation?.generation }
        let deferred = { kind.isDeferred(on: feed) }
        let arrivals = transport.arrivals
        switch await tracker.start(operation, flight: flight, deferred: deferred, on: transport) {
        case .sent(let task, let id): waiting[id, default: []].append(task)
        case .answeredOnTheWay: await followHeldPages(after: arrivals)
        case .deferred(let task): held.add(task, for: kind)
        case .joined, .skipped: break
        }
    }

    /// Answers a request and waits for what follows: the operation's next request, or
    /// its end.
    private mutating func answer(_ id: Int, fails: Bool) async {
        guard let request = transport.pending.first(where: { $0.id == id })?.request else { return }
        let known = transport.pending.map(\.id).max() ?? id
        let arrivals = transport.arrivals
        let feed = self.feed
        let flight = { feed.loading.currentOperation?.generation }
        transport.answer(id, with: server.answer(request, fails: fails))
        let next = await tracker.settle(after: id, known: known, flight: flight, on: transport)
        let tasks = waiting.removeValue(forKey: id) ?? []
        if let following = next {
            waiting[following, default: []] += tasks
            return
        }
        for task in tasks {
            await task.finish()
        }
        // A page asked for meanwhile starts in the turn this response is applied.
        await followHeldPages(after: arrivals)
    }

    /// After an operation ended: the pages held meanwhile start, and are watched, or end.
    private mutating func followHeldPages(after arrivals: Int) async {
        let feed = self.feed
        if let started = await tracker.follow(
            &held,
            feed: { HeldPageView(of: feed) },
            after: arrivals,
            on: transport
        ) {
            waiting[started.request, default: []] += started.tasks
        }
    }

    /// The first broken rule, if any.
    private func check() -> String? {
        let ids = feed.loadingState.content?.map(\.id) ?? []
        let pagination = feed.pagination
        if let mismatch = feed.changeMismatch {
            return mismatch
        }
        if feed.loadingState.content != nil, feed.rows != ids.count {
            return "the changes reported add up to \(feed.rows) rows, not \(ids.count)"
        }
        if pagination.hasMorePages, pagination.nextCursor?.query != "after=\(ids.last ?? 0)" {
            return "next page \(String(describing: pagination.nextCursor)) after \(ids)"
        }
        if pagination.hasPreviousPages,
            pagination.previousCursor?.query != "before=\(ids.first ?? 0)"
        {
            return "previous page \(String(describing: pagination.previousCursor)) before \(ids)"
        }
        if Set(ids).count != ids.count {
            return "duplicate items \(ids)"
        }
        if let first = ids.first {
            let list = server.ids
            guard let start = list.firstIndex(of: first),
                list.count - start >= ids.count,
                Array(list[start..<(start + ids.count)]) == ids
            else {
                return "\(ids) is not a window of the server's list"
            }
        }
        if pagination.hasFirstPage != (feed.loadingState.content != nil) {
            return "\(pagination.pagesLoaded) pages for content \(ids)"
        }
        if pagination.pages.dropFirst().reduce(0, { $0 + $1.count }) != pagination.itemsAfterHead {
            return "the running count of items after the head page drifted"
        }
        if pagination.pages.dropFirst().reduce(0, { $0 + $1.count }) > ids.count {
            return "pages of \(pagination.pages.map(\.count)) items for \(ids.count)"
        }
        if pagination.pagesLoaded > feed.maxPages ?? .max {
            return "\(pagination.pagesLoaded) pages beyond the window"
        }
        if pagination.hasFirstPage, !pagination.hasMorePages, ids.last != server.ids.last {
            return "no more pages, but \(ids) does not reach the end"
        }
        return nil
    }
}

/// A list screen over the cursor server, paged both ways and refreshed at the head,
/// that follows the rows by their count from what `didApply(_:)` reports.
@MainActor
private final class WindowFeed: Paginating, Refreshable {
    let loading = LoadingCore<[Post]>()
    let webservice: Webservice
    let maxPages: Int?
    /// The rows a view would have, counted from the changes reported.
    private(set) var rows = 0
    private(set) var changeMismatch: String?

    init(webservice: Webservice, maxPages: Int?) {
        self.webservice = webservice
        self.maxPages = maxPages
    }

    func resource(forPage cursor: URL?) -> Resource<Page<Post, URL>> {
        .linked(url: cursor ?? CursorServer.firstPage)
    }

    func refreshResource(newerThan first: Post?) -> Resource<[Post]> {
        Resource(url: CursorServer.newest)
    }

    func didApply(_ change: ContentChange) {
        switch change {
        case .none: break
        case .replaced: rows = loadingState.content?.count ?? 0
        case .appended(let range):
            if range.lowerBound != rows { changeMismatch = "appended \(range) to \(rows) rows" }
            rows = range.upperBound
        case .inserted(let indices):
            if indices.first != 0 { changeMismatch = "inserted \(indices) not at the head" }
            rows += indices.count
        case .removed(let range):
            if range.lowerBound != 0 && range.upperBound != rows {
                changeMismatch = "removed \(range) of \(rows) rows, not at an end"
            }
            rows -= range.count
        }
    }
}

/// A list of posts, newest first, that grows at the head; pages of four addressed by
/// the item they follow or precede, chained by `Link` headers.
private struct CursorServer {
    static let firstPage = URL(string: "https://window.test/posts")!
    static let newest = URL(string: "https://window.test/posts?newest")!
    private static let size = 4

    private(set) var ids: [Int] = Array((1...22).reversed())

    mutating func publish(_ count: Int) {
        let top = ids.first ?? 0
        ids.insert(contentsOf: ((top + 1)...(top + count)).reversed(), at: 0)
    }

    func answer(_ request: URLRequest, fails: Bool) -> Result<(Data, HTTPURLResponse), any Error> {
        let url = request.url!
        guard !fails else { return .success((Data("busy".utf8), response(url, 503, [:]))) }
        let query = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        let value = { (name: String) in query.first { $0.name == name }?.value.flatMap(Int.init) }
        let range: Range<Int>
        if let after = value("after"), let index = ids.firstIndex(of: after) {
            range = (index + 1)..<min(ids.count, index + 1 + Self.size)
        } else if let before = value("before"), let index = ids.firstIndex(of: before) {
            range = max(0, index - Self.size)..<index
        } else {
            let size = url == Self.newest ? 2 * Self.size : Self.size
            range = 0..<min(ids.count, size)
        }
        var links: [String] = []
        if range.upperBound < ids.count, let last = range.last {
            links.append("<\(Self.firstPage)?after=\(ids[last])>; rel=\"next\"")
        }
        if range.lowerBound > 0 {
            links.append("<\(Self.firstPage)?before=\(ids[range.lowerBound])>; rel=\"prev\"")
        }
        let body = (try? JSONEncoder().encode(Post.list(ids[range]))) ?? Data()
        let headers = links.isEmpty ? [:] : ["Link": links.joined(separator: ", ")]
        return .success((body, response(url, 200, headers)))
    }

    private func response(_ url: URL, _ status: Int, _ headers: [String: String]) -> HTTPURLResponse
    {
        HTTPURLResponse(
            url: url,
            statusCode: status,
            httpVersion: "HTTP/1.1",
            headerFields: headers
        )!
    }
}
