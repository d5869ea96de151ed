import Foundation
import LoadingKit
import LoadingKitTesting

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A scripted app session over loopback, through the kit and written by hand: a list,
/// 20 detail screens opened from it and closed (ten items, each opened twice), back to
/// the list, a pull-to-refresh, scrolling down to the sixth page (five more pages), and
/// the list opened again. The server
/// answers as APIs commonly do: `Cache-Control: max-age=60` and an `ETag` it honours.
///
/// The hand-written session does what screens written without a kit commonly do: every
/// screen loads what it shows when it appears, with `URLSession` and `JSONDecoder`.
///
/// The relaunch rows run the same session in a new launch: through the kit, a new
/// webservice on the disk cache the first launch left — the list shows the six pages
/// it held at once, still fresh, and its rows' detail screens need no request; the
/// pull-to-refresh reloads the six pages, and no page is loaded to scroll down; by
/// hand, as before, with nothing kept.
@MainActor
struct WorkloadScenario {
    let quick: Bool
    let server: LoopbackServer
    let transport = URLSessionTransport()
    nonisolated static let pageSize = 20
    private nonisolated static let details = 10

    init(quick: Bool) throws {
        self.quick = quick
        server = try LoopbackServer()
        server.route("/items") { request in
            let page = request.query("page").flatMap(Int.init) ?? 1
            let items = ((page - 1) * Self.pageSize..<page * Self.pageSize).map(Self.item)
            return Self.answer(request, tag: "p\(page)", body: try! JSONEncoder().encode(items))
        }
        for id in 0..<Self.details {
            let body = try JSONEncoder().encode(Self.item(id))
            server.route("/items/\(id)") { request in
                Self.answer(request, tag: "d\(id)", body: body)
            }
        }
    }

    /// Item `id`, the same in the list and on its own, as in most JSON APIs.
    nonisolated static func item(_ id: Int) -> BenchItem {
        BenchItem(id: id, title: "Item number \(id) with some text")
    }

    /// `304` when the request names the current tag, else the body.
    private nonisolated static func answer(
        _ request: LoopbackServer.Request,
        tag: String,
        body: Data
    ) -> MockResponse {
        let etag = "\"\(tag)\""
        let headers = ["Cache-Control": "max-age=60", "ETag": etag]
        if request.header("If-None-Match") == etag {
            return MockResponse(statusCode: 304, headers: headers)
        }
        return MockResponse(
            headers: headers.merging(["Content-Type": "application/json"]) { $1 },
            body: body
        )
    }

    func run() async throws -> [Row] {
        let caches = FileManager.default.temporaryDirectory
            .appending(path: "loadingkit-bench-relaunch-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: caches) }
        // The session's own actions ask for seven requests of the hand-written 29: the
        // first page, the pull-to-refresh and five new pages.
        return try await rows(named: "workload session", requestBudget: 7 / 29, cpuBudget: 0.4) {
            Webservice(transport: transport)
        }
            + rows(named: "workload after a relaunch", requestBudget: 0.5, cpuBudget: 0.6) {
                try await relaunched(in: caches.appending(path: UUID().uuidString))
            }
    }

    /// The requests and CPU rows of the kit's session, on the webservice `launch`
    /// makes untimed, against the hand-written one, with their budgets.
    private func rows(
        named name: String,
        requestBudget: Double,
        cpuBudget: Double,
        launch: () async throws -> Webservice
    ) async throws -> [Row] {
        var kitRequests: [Double] = []
        var handRequests: [Double] = []
        var interleaved = Interleaved(rounds: quick ? 3 : 15)
        let comparison = try await interleaved.compare {
            let webservice = try await launch()
            let before = server.requests.count
            let sample = try await Measure.time(operations: 1) {
                try await kitSession(on: webservice)
            }
            kitRequests.append(Double(server.requests.count - before))
            return sample
        } baseline: {
            let before = server.requests.count
            let sample = try await Measure.time(operations: 1) { try await handWrittenSession() }
            handRequests.append(Double(server.requests.count - before))
            return sample
        }
        let requests = Spread(zip(kitRequests, handRequests).map { $0 / $1 })
        return [
            Row(
                scenario: "\(name): requests",
                metric: "count",
                kit: Spread(kitRequests).median,
                baseline: Spread(handRequests).median,
                ratio: requests,
                budget: requestBudget,
                note: "requests of a scripted app session vs the same session by hand"
            ),
            Row(
                "\(name): CPU",
                comparison,
                budget: cpuBudget,
                note: "CPU of the scripted session vs the same session by hand"
            ),
        ]
    }

    private func pageURL(_ page: Int) -> URL {
        server.url("/items?page=\(page)&per_page=\(Self.pageSize)")
    }

    private nonisolated func detailURL(_ id: Int) -> URL {
        server.url("/items/\(id)")
    }

    /// An item's own resource, as its detail screen loads it.
    private nonisolated func detail(_ id: Int) -> Resource<BenchItem> {
        Resource(url: detailURL(id))
    }

    /// A webservice in a second launch: a first one ran the session on a disk cache in
    /// `directory` and wrote what it stored; the new one starts on that cache.
    private func relaunched(in directory: URL) async throws -> Webservice {
        func launch() -> Webservice {
            Webservice(
                transport: transport,
                configuration: .init(persistentStore: DiskResourceStore(directory: directory))
            )
        }
        let first = launch()
        try await kitSession(on: first)
        await first.persistPendingValues()
        return launch()
    }

    /// The session through the kit, on `webservice` and its store.
    private func kitSession(on webservice: Webservice) async throws {
        let list = WorkloadList(webservice: webservice, url: server.url("/items"), detail: detail)
        await list.loadFirstPage()
        for id in Array(0..<Self.details) + Array(0..<Self.details) {
            let screen = BenchScreen<BenchItem>(webservice: webservice)
            await screen.load(resource: detail(id))
            precondition(screen.loadingState.content == Self.item(id))
        }
        await list.loadingDidAppear()?.finish()
        await list.reload()
        // Scrolled down to the sixth page: five more pages, unless the list shows them.
        while list.pagination.pagesLoaded < 6 {
            await list.loadNextPage()
            precondition(list.pagination.pageError == nil, "a page of the workload failed")
        }
        let reopened = WorkloadList(
            webservice: webservice,
            url: server.url("/items"),
            detail: detail
        )
        await reopened.loadFirstPage()
        // Every page the list on screen holds, shown from it at once.
        precondition(reopened.loadingState.content == list.loadingState.content)
    }

    /// The same session written by hand.
    private func handWrittenSession() async throws {
        let session = transport.session
        let list = BaselineState<[BenchItem]>()
        list.value = try await HandWritten.fetch(session: session, url: pageURL(1))
        for id in Array(0..<Self.details) + Array(0..<Self.details) {
            let detail = BaselineState<BenchItem>()
            detail.value = try await HandWritten.fetch(session: session, url: detailURL(id))
        }
        list.value = try await HandWritten.fetch(session: session, url: pageURL(1))
        list.value = try await HandWritten.fetch(session: session, url: pageURL(1))
        for page in 2...6 {
            let items: [BenchItem] = try await HandWritten.fetch(
                session: session,
                url: pageURL(page)
            )
            list.value?.append(contentsOf: items)
        }
        let reopened = BaselineState<[BenchItem]>()
        reopened.value = try await HandWritten.fetch(session: session, url: pageURL(1))
        precondition(reopened.value?.count == Self.pageSize)
    }
}

/// The paginated list of the workload, whose items are stored under their own
/// resources for the detail screens.
@MainActor
final class WorkloadList: Paginating {
    let loading = LoadingCore<[BenchItem]>()
    let webservice: Webservice
    let url: URL
    let detail: @Sendable (Int) -> Resource<BenchItem>

    init(webservice: Webservice, url: URL, detail: @escaping @Sendable (Int) -> Resource<BenchItem>)
    {
        self.webservice = webservice
        self.url = url
        self.detail = detail
    }

    func configure(value: [BenchItem]) {}

    func resource(forPage page: Int?) -> Resource<Page<BenchItem, Int>> {
        let detail = self.detail
        return .pageNumber(url: url, page: page, size: WorkloadScenario.pageSize)
            .storingElements(\.items, as: { detail($0.id) })
    }
}
