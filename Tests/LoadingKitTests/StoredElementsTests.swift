import Foundation
import LoadingKit
import LoadingKitTesting
import Testing

/// A list whose elements are stored under their own resources: a detail screen opened
/// on an item the list holds shows it without a request while the list is fresh, and
/// a newer value of either never gives way to an older one.
@MainActor
@Suite("A list storing its elements", .timeLimit(.minutes(1)))
struct StoredElementsTests {
    let mock = MockTransport()
    let clock = ManualClock()

    private let posts = Resource<[Post]>(url: Post.baseURL.appending(path: "posts"))
        .storingElements(as: { Post.resource(id: $0.id) })

    private func webservice() -> Webservice {
        Webservice(transport: mock, configuration: .init(clock: clock))
    }

    @Test("a detail screen on an item the list holds shows it at once and sends nothing")
    func detailShowsListedItem() async {
        mock.respond(
            to: "/posts",
            with: .json(Post.list([1, 2])).header("Cache-Control", "max-age=60")
        )
        let webservice = webservice()
        await PostsScreen(webservice: webservice, clock: clock).load(resource: posts)
        clock.advance(by: .seconds(30))

        let detail = PostScreen(webservice: webservice, clock: clock)
        await detail.load(resource: Post.resource(id: 2))
        #expect(detail.configured == ["Post 2"])
        #expect(detail.loadingState.activity == .idle)
        #expect(mock.requests.count == 1)
        #expect(
            posts.identity == Resource<[Post]>(url: Post.baseURL.appending(path: "posts")).identity
        )
    }

    @Test("a 304 for the list keeps its items fresh without naming their resources again")
    func notModifiedListKeepsItemsFresh() async {
        let named = CounterSignal()
        let posts = Resource<[Post]>(url: Post.baseURL.appending(path: "posts"))
            .storingElements(as: { post in
                named.increment()
                return Post.resource(id: post.id)
            })
        let fields = ["Cache-Control": "max-age=60", "ETag": "\"v1\""]
        mock.respond(
            to: "/posts",
            with: .json(Post.list([1, 2])).header("Cache-Control", "max-age=60")
                .header("ETag", "\"v1\"")
        )
        mock.respond(to: "/posts", with: MockResponse(statusCode: 304, headers: fields))
        let webservice = webservice()
        let list = PostsScreen(webservice: webservice, clock: clock)
        await list.load(resource: posts)
        #expect(named.value == 2)
        clock.advance(by: .seconds(61))

        await list.load(resource: posts, policy: .force)
        #expect(named.value == 2)
        // 91 seconds after the list's answer, 30 after its 304: the items are fresh.
        clock.advance(by: .seconds(30))
        let detail = PostScreen(webservice: webservice, clock: clock)
        await detail.load(resource: Post.resource(id: 2))
        #expect(detail.configured == ["Post 2"])
        #expect(
            mock.requests.map { $0.value(forHTTPHeaderField: "If-None-Match") } == [nil, "\"v1\""]
        )
    }

    @Test("once the list is stale, a detail screen on an item asks for it")
    func staleListedItemIsLoaded() async {
        mock.respond(
            to: "/posts",
            with: .json(Post.list([1, 2])).header("Cache-Control", "max-age=60")
        )
        mock.respond(to: "/posts/2", with: .json(TitledPost(id: 2, title: "Post 2, in full")))
        let webservice = webservice()
        await PostsScreen(webservice: webservice, clock: clock).load(resource: posts)
        clock.advance(by: .seconds(61))

        let detail = PostScreen(webservice: webservice, clock: clock)
        await detail.load(resource: Post.resource(id: 2))
        #expect(detail.configured == ["Post 2", "Post 2, in full"])
        #expect(mock.requests.map(\.url?.path) == ["/posts", "/posts/2"])
    }

    @Test("an item loaded after the list's request was sent is not replaced by the list's")
    func laterItemIsKept() async {
        let gate = MockTransport.Gate()
        mock.respond(to: "/posts", with: .json(Post.list([1, 2])), after: gate)
        mock.respond(to: "/posts/2", with: .json(TitledPost(id: 2, title: "Post 2, edited")))
        let webservice = webservice()
        let list = PostsScreen(webservice: webservice, clock: clock)
        let listed = list.startLoading(resource: posts)
        await gate.waitForArrivals()
        let detail = PostScreen(webservice: webservice, clock: clock)
        await detail.load(resource: Post.resource(id: 2))
        gate.open()
        await listed.finish()
        #expect(webservice.storedValue(for: Post.resource(id: 2))?.value.title == "Post 2, edited")
        #expect(detail.configured == ["Post 2, edited"])
        #expect(webservice.storedValue(for: Post.resource(id: 1))?.value.title == "Post 1")
    }

    @Test("a screen showing an item is shown the newer one a page of the list brings")
    func pageUpdatesShownItem() async {
        mock.respond(to: "/posts/2", with: .json(TitledPost(id: 2, title: "Post 2")))
        mock.respond(to: "/posts", with: .json([TitledPost(id: 2, title: "Post 2, renamed")]))
        let webservice = webservice()
        let detail = PostScreen(webservice: webservice, clock: clock)
        await detail.load(resource: Post.resource(id: 2))

        let page = Resource<Page<Post, Int>>.pageNumber(
            url: Post.baseURL.appending(path: "posts"),
            page: nil,
            size: 20
        ).storingElements(\.items, as: { Post.resource(id: $0.id) })
        let first = try? await webservice.load(page)
        #expect(first?.items.count == 1)
        // The store tells live screens in the next main-actor turn.
        for await state in detail.states where state.content?.title == "Post 2, renamed" {
            break
        }
        #expect(detail.configured == ["Post 2", "Post 2, renamed"])
    }
}

/// A post with a title of its own.
private struct TitledPost: Encodable {
    let id: Int
    let title: String
}

/// A detail screen: one post.
@MainActor
private final class PostScreen: Loading {
    let loading = LoadingCore<Post>()
    let webservice: Webservice
    let loadingClock: any Clock<Duration>
    private(set) var configured: [String] = []

    init(webservice: Webservice, clock: any Clock<Duration>) {
        self.webservice = webservice
        self.loadingClock = clock
    }

    func configure(value: Post) {
        configured.append(value.title)
    }
}
