import Dispatch
import Foundation
import LoadingKit
import LoadingKitTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A screen only ever shows the value of the resource it asked for: the numbered cases
/// of the resource-identity rules, over real HTTP where the order allows it.
@MainActor
@Suite("Resource identity in loaders", .timeLimit(.minutes(1)))
struct ResourceIdentityRulesTests {
    static let transport = URLSessionTransport(configuration: .init(timeout: 10))
    let posts = Post.list(1...5)

    /// A server whose `/posts` answers five posts with an `ETag` that does not depend
    /// on who asks, and `304` to that tag.
    func postsServer() throws -> LoopbackServer {
        let server = try LoopbackServer()
        let posts = self.posts
        server.route("/posts") { request in
            .revalidating(request, entityTag: #""posts-v1""#, .json(posts))
        }
        return server
    }

    @Test("1. a mapped resource revalidated with 304 keeps its own value, not the unmapped one")
    func mappedRevalidation() async throws {
        let server = try postsServer()
        let webservice = Webservice(transport: Self.transport)
        let all = Resource<[Post]>(url: server.url("/posts"))
        let first = all.map { Array($0.prefix(1)) }
        let list = PostsScreen(webservice: webservice)
        let detail = PostsScreen(webservice: webservice)

        await list.load(resource: all)
        await detail.load(resource: first)
        await detail.load(resource: first, policy: .force)

        #expect(list.ids == [1, 2, 3, 4, 5])
        #expect(detail.ids == [1])
        #expect(detail.configured == [[1]])
        let detailRequests = server.requests.dropFirst()
        #expect(detailRequests.first?.header("If-None-Match") == nil)
        #expect(detailRequests.last?.header("If-None-Match") == #""posts-v1""#)
    }

    @Test("2. concurrent loads of one URL with different parses make two requests")
    func differentParsesDoNotCoalesce() async throws {
        let mock = MockTransport()
        let gate = MockTransport.Gate()
        mock.respond(to: "/posts", with: .json(posts), after: gate)
        mock.respond(to: "/posts", with: .json(posts), after: gate)
        let webservice = Webservice(transport: mock)
        let all = Post.feed()
        let first = all.map(identifiedBy: "first") { Array($0.prefix(1)) }
        let list = PostsScreen(webservice: webservice)
        let detail = PostsScreen(webservice: webservice)

        let listLoad = list.startLoading(resource: all)
        await gate.waitForArrivals(1)
        let detailLoad = detail.startLoading(resource: first)
        await gate.waitForArrivals(2)
        gate.open()
        await listLoad.finish()
        await detailLoad.finish()

        #expect(mock.requests.count == 2)
        #expect(list.ids == [1, 2, 3, 4, 5])
        #expect(detail.ids == [1])
    }

    @Test("2. over HTTP too: two parses of one URL in flight at once are two requests")
    func differentParsesDoNotCoalesceOverHTTP() async throws {
        let server = try LoopbackServer()
        let release = DispatchSemaphore(value: 0)
        server.route("/posts") { [posts] _ in
            release.wait()
            return .json(posts)
        }
        let webservice = Webservice(transport: Self.transport)
        let all = Resource<[Post]>(url: server.url("/posts"))
        let list = PostsScreen(webservice: webservice)
        let detail = PostsScreen(webservice: webservice)

        let loads = [
            list.startLoading(resource: all),
            detail.startLoading(resource: all.map { Array($0.prefix(1)) }),
        ]
        await server.waitForRequests(2)
        release.signal()
        release.signal()
        for load in loads {
            await load.finish()
        }
        #expect(list.ids == [1, 2, 3, 4, 5])
        #expect(detail.ids == [1])
    }

    @Test("2. the same resource loaded by two screens at once still shares one request")
    func sameResourceCoalesces() async throws {
        let mock = MockTransport()
        let gate = MockTransport.Gate()
        mock.respond(to: "/posts", with: .json(posts), after: gate)
        let webservice = Webservice(transport: mock)
        let first = Post.feed().map(identifiedBy: "first") { Array($0.prefix(1)) }
        let one = PostsScreen(webservice: webservice)
        let two = PostsScreen(webservice: webservice)

        let loads = [one.startLoading(resource: first), two.startLoading(resource: first)]
        await gate.waitForArrivals(1)
        while webservice.sharedCallers < 2, !Task.isCancelled {
            await Task.yield()
        }
        gate.open()
        for load in loads {
            await load.finish()
        }
        #expect(mock.requests.count == 1)
        #expect(one.ids == [1])
        #expect(two.ids == [1])
    }

    @Test("3. a Link page allowing cross-origin is not answered from one that refused it")
    func linkedCrossOriginIsItsOwnResource() async throws {
        let other = try LoopbackServer()
        let server = try LoopbackServer()
        let next = other.url("/posts?page=2")
        let posts = self.posts
        server.route("/posts") { request in
            .revalidating(
                request,
                entityTag: #""page-1""#,
                .json(posts).header("Link", "<\(next.absoluteString)>; rel=\"next\"")
            )
        }
        let webservice = Webservice(transport: Self.transport)
        let url = server.url("/posts")

        let refused = try await webservice.load(Resource<Page<Post, URL>>.linked(url: url))
        let allowed = try await webservice.load(
            Resource<Page<Post, URL>>.linked(url: url, allowsCrossOrigin: true)
        )

        #expect(refused.next == nil)
        #expect(allowed.next == next)
        #expect(server.requests.last?.header("If-None-Match") == nil)
    }

    @Test("5. a default load of B while A is in flight loads B and shows B")
    func loadOfAnotherResourceDoesNotJoin() async throws {
        let server = try LoopbackServer()
        server.route("/a") { _ in .json(Post.list([1])).delayed(by: .seconds(120)) }
        server.route("/b") { _ in .json(Post.list([2])) }
        let screen = PostsScreen(webservice: Webservice(transport: Self.transport))

        let loadA = screen.startLoading(resource: Resource(url: server.url("/a")))
        await server.waitForRequests(1)
        await screen.load(resource: Resource(url: server.url("/b")))
        await loadA.finish()

        #expect(server.requestCount(for: "/b") == 1)
        #expect(screen.ids == [2])
        #expect(screen.configured == [[2]])
        #expect(screen.loadingState.placeholder == .content)
    }

    @Test(
        "6. a default load of B after A was loaded loads B; B again is skipped; A again shows the stored A"
    )
    func loadOfAnotherResourceIsNotSkipped() async throws {
        let server = try LoopbackServer()
        server.route("/items/1") { _ in .json(Post.list([1])) }
        server.route("/items/2") { _ in .json(Post.list([2])) }
        let screen = PostsScreen(webservice: Webservice(transport: Self.transport))
        let one = Resource<[Post]>(url: server.url("/items/1"))
        let two = Resource<[Post]>(url: server.url("/items/2"))

        await screen.load(resource: one)
        await screen.load(resource: two)
        #expect(screen.ids == [2], "\(screen.loadingState)")
        await screen.load(resource: two)
        #expect(server.requests.count == 2)
        await screen.load(resource: one)
        #expect(screen.ids == [1])
        #expect(screen.configured == [[1], [2], [1]])
        #expect(server.requests.count == 2)
    }

    @Test("a paginated list is the resource of its first page: appearing again is a skip")
    func paginatedListKeepsItsIdentity() async throws {
        let server = try LoopbackServer()
        server.route("/posts") { [posts] _ in .json(posts) }
        let url = server.url("/posts")
        let screen = PagedScreen<Post, Int>(transport: Self.transport) { page in
            .pageNumber(url: url, page: page, size: 10)
        }
        await screen.loadFirstPage()
        await screen.loadingDidAppear()?.finish()
        await screen.loadFirstPage()
        #expect(server.requests.count == 1)
        #expect(screen.loadingState.content == posts)
        #expect(screen.pagination.pagesLoaded == 1)
    }

    @Test("a default load of the same resource during a refresh joins the refresh")
    func sameResourceJoinsARefresh() async throws {
        let mock = MockTransport()
        mock.respond(to: "/posts", with: .json(Post.list([2, 1])))
        let gate = MockTransport.Gate()
        mock.respond(to: "/posts?since=2", with: .json(Post.list([3, 2])), after: gate)
        let feed = FeedScreen(transport: mock)
        await feed.load(resource: Post.feed())

        let refresh = feed.startRefreshing()
        await gate.waitForArrivals()
        let appear = feed.startLoading(resource: Post.feed())
        gate.open()
        await refresh.finish()
        await appear.finish()

        #expect(mock.requests.count == 2)
        #expect(feed.loadingState.content?.map(\.id) == [3, 2, 1])
    }

    @Test("while another resource loads, the old content is not presented as current")
    func switchingClearsTheOldResource() async throws {
        let mock = MockTransport()
        mock.respond(to: "/items/1", with: .json(Post.list([1])))
        let gate = MockTransport.Gate()
        mock.respond(to: "/items/2", with: .status(503), after: gate)
        let screen = PostsScreen(webservice: Webservice(transport: mock))
        let base = "https://api.example.com/items/"
        await screen.load(resource: Resource(url: URL(string: base + "1")!))

        let load = screen.startLoading(
            resource: Resource(url: URL(string: base + "2")!),
            policy: .background
        )
        await gate.waitForArrivals()
        #expect(screen.loadingState.content == nil)
        #expect(screen.loadingState.placeholder == .loading)
        gate.open()
        await load.finish()
        #expect(screen.loadingState.content == nil)
        guard case .error = screen.loadingState.placeholder else {
            Issue.record("a failed load of item 2 shows its error, not item 1")
            return
        }
    }

    @Test("8. configure is never called for a load whose awaiting task was cancelled")
    func noConfigureAfterCancellation() async throws {
        let server = try LoopbackServer()
        let respond = DispatchSemaphore(value: 0)
        server.route("/posts") { [posts] _ in
            respond.wait()
            return .json(posts)
        }
        let parsed = DispatchSemaphore(value: 0)
        let resource = Resource<[Post]>(url: server.url("/posts")).map(identifiedBy: "signal") {
            value in
            parsed.signal()
            return value
        }
        let screen = PostsScreen(webservice: Webservice(transport: Self.transport))

        let caller = Task { await screen.load(resource: resource) }
        await server.waitForRequests(1)
        // The server answers only now, and the main actor stays busy until the answer
        // has been parsed: the value waits for it, and the task is cancelled in that
        // window.
        respond.signal()
        blockUntilSignalled(parsed)
        caller.cancel()
        await caller.valuePropagatingCancellation

        #expect(screen.configured.isEmpty)
        #expect(screen.loadingState.content == nil)
        #expect(screen.loadingState.wasCancelled)
        #expect(screen.loadingState.isLoading == false)
        #expect(screen.cancellations == 1)
    }

    @Test("9. cancelling a load that leads a shared request is reported at once")
    func leaderCancellationIsReportedAtOnce() async throws {
        let mock = MockTransport()
        let gate = MockTransport.Gate()
        mock.respond(to: "/posts", with: .json(posts), after: gate)
        let webservice = Webservice(transport: mock)
        let leader = PostsScreen(webservice: webservice)
        let follower = PostsScreen(webservice: webservice)
        let resource = Post.feed()

        let leading = Task { await leader.load(resource: resource) }
        await gate.waitForArrivals()
        let following = follower.startLoading(resource: resource)
        while webservice.sharedCallers < 2, !Task.isCancelled {
            await Task.yield()
        }
        await callback { reply in
            leader.onCancellation = { reply(()) }
            leading.cancel()
        }
        #expect(leader.loadingState.wasCancelled)
        #expect(leader.loadingState.isLoading == false)
        #expect(gate.isOpen == false)

        gate.open()
        await following.finish()
        await leading.valuePropagatingCancellation
        #expect(follower.ids == [1, 2, 3, 4, 5])
        #expect(leader.configured.isEmpty)
        #expect(leader.cancellations == 1)
    }

    @Test("9. a cancelled load is reported: hook, state and completion, never a failure")
    func cancellationIsReported() async throws {
        let server = try LoopbackServer()
        server.route("/posts") { [posts] _ in .json(posts).delayed(by: .seconds(120)) }
        let screen = PostsScreen(webservice: Webservice(transport: Self.transport))
        let resource = Resource<[Post]>(url: server.url("/posts"))

        let state = await callback { reply in
            let task = screen.startLoading(resource: resource) { reply($0) }
            Task {
                await server.waitForRequests(1)
                task.cancel()
            }
        }
        let completed = try #require(state)
        #expect(completed.wasCancelled)
        #expect(completed.error == nil)
        #expect(screen.cancellations == 1)

        let again = screen.startLoading(resource: resource, policy: .force)
        #expect(screen.loadingState.wasCancelled == false)
        await server.waitForRequests(2)
        screen.cancelLoading()
        await again.finish()
        #expect(screen.loadingState.wasCancelled)
        #expect(screen.cancellations == 2)
        #expect(screen.failures.isEmpty)
    }
}
