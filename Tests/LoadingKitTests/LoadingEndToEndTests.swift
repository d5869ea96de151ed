import Foundation
import LoadingKit
import LoadingKitTesting
import Testing

/// A `Loading` conformer through `URLSessionTransport` against `LoopbackServer`.
@MainActor
@Suite("Loading over loopback", .timeLimit(.minutes(1)))
struct LoadingEndToEndTests {
    static let transport = URLSessionTransport(configuration: .init(timeout: 10))

    @Test("load, fail a reload keeping the content, then reload again")
    func loadFailReload() async throws {
        let server = try LoopbackServer()
        server.route(
            "/episodes/1",
            answering: [
                .json(Episode(id: 1, title: "Pilot 1")),
                .text("<html>maintenance</html>", status: 503),
                .json(Episode(id: 1, title: "Pilot 3")),
            ]
        )
        let screen = RecordingScreen(transport: Self.transport)
        let resource = Resource<Episode>(url: server.url("/episodes/1"))

        await screen.load(resource: resource)
        #expect(screen.loadingState.placeholder == .content)
        #expect(screen.log.configured == ["Pilot 1"])

        await screen.load(resource: resource, policy: .background)
        guard case .webservice(.badStatus(let failure))? = screen.loadingState.error else {
            Issue.record("expected a 503 in the state")
            return
        }
        #expect(failure.statusCode == 503)
        #expect(screen.loadingState.content?.title == "Pilot 1")
        #expect(screen.loadingState.placeholder == .content)

        await screen.load(resource: resource)
        #expect(screen.loadingState.error == nil)
        #expect(screen.log.configured == ["Pilot 1", "Pilot 3"])
        #expect(server.requestCount(for: "/episodes/1") == 3)
    }

    @Test("cancelling a slow load over real HTTP restores the state at once")
    func cancelSlowLoad() async throws {
        let server = try LoopbackServer()
        server.route("/episodes/1") { _ in
            MockResponse.json(Episode(id: 1, title: "late")).delayed(by: .seconds(120))
        }
        let screen = RecordingScreen(transport: Self.transport)
        let task = screen.startLoading(resource: Resource(url: server.url("/episodes/1")))
        await server.waitForRequests(1)
        screen.cancelLoading()
        await task.finish()
        #expect(screen.loadingState.isRestored(from: LoadingState()))
        #expect(screen.log.failures.isEmpty)
    }

    @Test("a refresh over real HTTP prepends what the server added between requests")
    func refreshPrependsServerInserts() async throws {
        let server = try LoopbackServer()
        let posts = Locked(Post.list((1...10).reversed()))
        server.route("/posts") { _ in .json(posts.withLock { Array($0.prefix(5)) }) }
        let feed = FeedScreen(transport: Self.transport, baseURL: server.baseURL)
        await feed.refresh()
        #expect(feed.ids == [10, 9, 8, 7, 6])

        posts.withLock { $0.insert(contentsOf: Post.list([12, 11]), at: 0) }
        await feed.refresh()
        #expect(feed.ids == [12, 11, 10, 9, 8, 7, 6])
        #expect(feed.changes == [.replaced, .inserted(IndexSet(0..<2))])
        #expect(server.requests.map(\.target) == ["/posts", "/posts?since=10"])
    }

    @Test("a Link-paginated collection over real HTTP arrives whole, in order, once")
    func linkPaginationOverHTTP() async throws {
        let server = try LoopbackServer()
        let issues = (1...100).map { GitHubIssue(id: $0, number: $0, title: "Issue \($0)") }
        server.route("/issues") { request in
            let page = Int(request.query("page") ?? "1") ?? 1
            let slice = Array(issues[(page - 1) * 25..<page * 25])
            // The last page points at another origin, which must not be followed.
            let next =
                page < 4 ? "</issues?page=\(page + 1)>" : "<http://localhost.invalid/issues?page=5>"
            return .json(slice, headers: [("Link", "\(next); rel=\"next\"")])
        }
        let first = server.url("/issues?page=1")
        let screen = PagedScreen<GitHubIssue, URL>(transport: Self.transport) { next in
            .linked(url: next ?? first)
        }
        await screen.loadAllPages()
        #expect(screen.items == issues)
        #expect(screen.pagination.pagesLoaded == 4)
        #expect(!screen.pagination.hasMorePages)
        #expect(server.requests.map(\.target) == (1...4).map { "/issues?page=\($0)" })
    }

    @Test("a refresh that cannot merge a Link-paged list sends the first page's request once")
    func unmergedRefreshFetchesFirstPageOnce() async throws {
        let server = try LoopbackServer()
        let stories = Locked(Post.list((1...20).reversed()))
        server.route("/stories") { request in
            let page = Int(request.query("page") ?? "1") ?? 1
            let all = stories.withLock { $0 }
            let slice = Array(all.dropFirst((page - 1) * 10).prefix(10))
            let next = page * 10 < all.count ? "</stories?page=\(page + 1)>; rel=\"next\"" : nil
            return .json(slice, headers: next.map { [("Link", $0)] } ?? [])
        }
        let feed = LinkedStoryFeed(url: server.url("/stories"))
        await feed.loadFirstPage()
        // 15 stories published: the first page no longer reaches what is shown.
        stories.withLock { $0.insert(contentsOf: Post.list((21...35).reversed()), at: 0) }
        await feed.refresh()
        #expect(feed.loadingState.content?.map(\.id) == Array((26...35).reversed()))
        #expect(feed.pagination.pagesLoaded == 1)
        #expect(feed.pagination.hasMorePages)
        #expect(server.requests.map(\.target) == ["/stories", "/stories"])
    }
}

/// A list of stories paged by `Link` headers, whose refresh asks for the first page's
/// own URL — as a newcomer writes it.
@MainActor
private final class LinkedStoryFeed: Paginating, Refreshable {
    let loading = LoadingCore<[Post]>()
    let webservice = Webservice(transport: LoadingEndToEndTests.transport)
    let url: URL

    init(url: URL) {
        self.url = url
    }

    func resource(forPage next: URL?) -> Resource<Page<Post, URL>> {
        .linked(url: next ?? url)
    }

    func refreshResource(newerThan first: Post?) -> Resource<[Post]> {
        Resource(url: url)
    }
}
