import Foundation
import LoadingKit
import LoadingKitTesting
import Testing

/// A page a user asks for is never dropped, whatever the list is doing and however
/// its page resources are built; a reload never drops a row the server kept.
@MainActor
@Suite("Page requests", .timeLimit(.minutes(1)))
struct PageRequestTests {
    let mock = MockTransport()
    let recorder = EventRecorder()
    let postsURL = URL(string: "https://api.example.com/posts")!

    func makeScreen() -> PagedScreen<Post, Int> {
        let webservice = Webservice(transport: mock, configuration: .init(monitor: recorder))
        return PagedScreen(webservice: webservice) { [postsURL] page in
            .pageNumber(url: postsURL, page: page, size: 3)
        }
    }

    @Test("a next page asked for during a forced reload waits for it, then loads after its pages")
    func nextPageDuringForcedReload() async throws {
        mock.respond(page: 1, posts: [1, 2, 3])
        mock.respond(page: 2, posts: [4, 5, 6])
        let screen = makeScreen()
        await screen.loadFirstPage()
        await screen.loadNextPage()
        let gate = MockTransport.Gate()
        mock.respond(page: 1, posts: [1, 2, 3], after: gate)
        mock.respond(page: 2, posts: [4, 5, 6])
        mock.respond(page: 3, posts: [7, 8, 9])
        let reload = screen.startLoadingFirstPage(policy: .force)
        await gate.waitForArrivals()

        let page = try #require(screen.loadNextPageIfNeeded(currentIndex: 5))
        #expect(screen.pagination.isNextPageDeferred)
        #expect(recorder.lines.contains { $0.contains("deferred a page of") })
        #expect(mock.requests.count == 3)

        gate.open()
        await reload.finish()
        await page.finish()
        #expect(screen.items.map(\.id) == Array(1...9))
        #expect(!screen.pagination.isNextPageDeferred)
        #expect(mock.requestCount(for: "/posts?page=3&per_page=3") == 1)
        #expect(mock.requests.count == 5)
    }

    @Test("a page held during a reload is dropped by a cancellation, which says so")
    func heldPageCancelled() async throws {
        mock.respond(page: 1, posts: [1, 2, 3])
        let screen = makeScreen()
        await screen.loadFirstPage()
        let gate = MockTransport.Gate()
        mock.respond(page: 1, posts: [1, 2, 3], after: gate)
        let reload = screen.startLoadingFirstPage(policy: .force)
        await gate.waitForArrivals()
        let page = screen.startLoadingNextPage()
        #expect(screen.pagination.isNextPageDeferred)

        screen.cancelLoading()
        await page.finish()
        #expect(!screen.pagination.isNextPageDeferred)
        #expect(screen.loadingState.wasCancelled)
        #expect(screen.items.map(\.id) == [1, 2, 3])
        gate.open()
        await reload.finish()
        #expect(mock.requests.count == 2)
    }

    @Test("a page held when a stored value of another resource is shown is refused, saying so")
    func heldPageRefusedByStoredValue() async throws {
        let other = Resource<[Post]>(url: URL(string: "https://api.example.com/other")!)
        mock.respond(
            to: "/other",
            with: .json(Post.list([7])).header("Cache-Control", "max-age=60")
        )
        mock.respond(page: 1, posts: [1, 2, 3])
        let screen = makeScreen()
        await PostsScreen(webservice: screen.webservice).load(resource: other)
        await screen.loadFirstPage()
        let gate = MockTransport.Gate()
        mock.respond(page: 1, posts: [1, 2, 3], after: gate)
        let reload = screen.startLoadingFirstPage(policy: .force)
        await gate.waitForArrivals()
        let page = screen.startLoadingNextPage()
        #expect(screen.pagination.isNextPageDeferred)

        await screen.load(resource: other)
        await page.finish()
        #expect(screen.items.map(\.id) == [7])
        #expect(!screen.pagination.isNextPageDeferred)
        #expect(recorder.lines.contains { $0.contains("refused a page of") })
        gate.open()
        await reload.finish()
        #expect(mock.requests.count == 3)
    }

    @Test("a next page asked for during the first page's load waits for it, then loads")
    func nextPageDuringFirstPage() async throws {
        mock.respond(page: 1, posts: [1, 2, 3])
        mock.respond(page: 2, posts: [4, 5, 6])
        let screen = makeScreen()
        let first = screen.startLoadingFirstPage()
        let next = screen.startLoadingNextPage()
        #expect(screen.pagination.isNextPageDeferred)
        await first.finish()
        await next.finish()
        #expect(screen.items.map(\.id) == [1, 2, 3, 4, 5, 6])
        #expect(screen.pagination.pagesLoaded == 2)
        #expect(!screen.pagination.isNextPageDeferred)
        #expect(recorder.lines.contains { $0.contains("deferred a page of") })
        #expect(!recorder.lines.contains { $0.contains("refused a page of") })
    }

    @Test("a next page asked for right after the view appears waits for the first page")
    func nextPageAfterAppearing() async throws {
        mock.respond(page: 1, posts: [1, 2, 3])
        mock.respond(page: 2, posts: [4, 5, 6])
        let screen = makeScreen()
        let appeared = try #require(screen.loadingDidAppear())
        await screen.loadNextPage()
        await appeared.finish()
        #expect(screen.items.map(\.id) == [1, 2, 3, 4, 5, 6])
    }

    @Test("a next page held for a first page that fails is refused then, saying so")
    func nextPageAfterFailedFirstPage() async throws {
        mock.respond(to: "/posts?page=1&per_page=3", with: .status(503))
        let screen = makeScreen()
        let first = screen.startLoadingFirstPage()
        let next = screen.startLoadingNextPage()
        await first.finish()
        await next.finish()
        #expect(screen.loadingState.error != nil)
        #expect(!screen.pagination.isNextPageDeferred)
        #expect(mock.requests.count == 1)
        #expect(recorder.lines.contains { $0.contains("refused a page of") })
    }

    @Test("a page asked for before the list shows a page is refused with an event")
    func pageRefusedWithoutPages() async throws {
        let screen = makeScreen()
        #expect(screen.loadNextPageIfNeeded(currentIndex: 0) == nil as LoadTask?)
        await screen.loadPreviousPage()
        #expect(mock.requests.isEmpty)
        #expect(recorder.lines.filter { $0.contains("refused a page of") }.count == 2)
    }

    @Test("a page resource built with an unnamed map pages, reloads in place and is current")
    func unnamedMapPages() async throws {
        struct Envelope: Codable, Sendable {
            let items: [Post]
            let next: Int?
        }
        for _ in 0..<2 {
            mock.respond(
                to: "/posts?page=1",
                with: .json(Envelope(items: Post.list([1, 2]), next: 2))
            )
            mock.respond(
                to: "/posts?page=2",
                with: .json(Envelope(items: Post.list([3]), next: nil))
            )
        }
        let screen = PagedScreen<Post, Int>(transport: mock) { page in
            Resource<Envelope>(url: URL(string: "https://api.example.com/posts?page=\(page ?? 1)")!)
                .map { Page(items: $0.items, next: $0.next) }
        }
        await screen.loadFirstPage()
        #expect(screen.pagination.hasMorePages)
        await screen.loadNextPage()
        #expect(screen.items.map(\.id) == [1, 2, 3])
        #expect(!screen.pagination.hasMorePages)

        await screen.loadFirstPage()
        #expect(mock.requests.count == 2)

        var states = screen.states.makeAsyncIterator()
        _ = await states.next()
        await screen.reload(policy: .background)
        #expect(await states.next()?.activity == .reloading)
        #expect(await states.next()?.content?.map(\.id) == [1, 2, 3])
        #expect(mock.requests.count == 4)
    }

    @Test("a reload after items were published at the head keeps every row shown")
    func reloadAfterHeadGrew() async throws {
        mock.respond(page: 1, posts: [1, 2, 3])
        mock.respond(page: 2, posts: [4, 5, 6])
        mock.respond(page: 3, posts: [7, 8, 9])
        let screen = makeScreen()
        await screen.loadFirstPage()
        await screen.loadNextPage()
        await screen.loadNextPage()
        #expect(screen.items.map(\.id) == Array(1...9))

        mock.respond(page: 1, posts: [102, 101, 1])
        mock.respond(page: 2, posts: [2, 3, 4])
        mock.respond(page: 3, posts: [5, 6, 7])
        mock.respond(page: 4, posts: [8, 9, 10])
        await screen.reload()
        #expect(screen.items.map(\.id) == [102, 101] + Array(1...10))
        #expect(screen.pagination.pagesLoaded == 4)
        #expect(screen.pagination.nextCursor == 5)
    }

    @Test("a reload stops looking for the last row shown after as many pages again")
    func reloadCoveringIsBounded() async throws {
        mock.respond(page: 1, posts: [1, 2, 3])
        let screen = makeScreen()
        await screen.loadFirstPage()

        mock.respond(page: 1, posts: [104, 103, 102])
        mock.respond(page: 2, posts: [101, 100, 99])
        await screen.reload()
        #expect(screen.items.map(\.id) == [104, 103, 102, 101, 100, 99])
        #expect(mock.requests.count == 3)
    }
}
