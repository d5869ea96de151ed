import Foundation
import LoadingKit
import LoadingKitTesting
import Testing

/// The rules of paginated lists, against `MockTransport` and its gates.
@MainActor
@Suite("Paginating", .timeLimit(.minutes(1)))
struct PaginatingTests {
    let mock = MockTransport()
    let postsURL = URL(string: "https://api.example.com/posts")!

    func makeScreen(monitor: (any LoadingMonitor)? = nil) -> PagedScreen<Post, Int> {
        PagedScreen(
            webservice: Webservice(transport: mock, configuration: .init(monitor: monitor))
        ) { [postsURL] page in
            .pageNumber(url: postsURL, page: page, size: 3)
        }
    }

    func ids(_ screen: PagedScreen<Post, Int>) -> [Int] { screen.items.map(\.id) }

    @Test("the first page replaces the content; each next page appends and reports its range")
    func appendsPages() async throws {
        mock.respond(page: 1, posts: [1, 2, 3])
        mock.respond(page: 2, posts: [4, 5, 6])
        let screen = makeScreen()
        await screen.loadFirstPage()
        #expect(screen.pagination.hasMorePages)
        await screen.loadNextPage()
        #expect(ids(screen) == [1, 2, 3, 4, 5, 6])
        #expect(screen.changes == [.replaced, .appended(3..<6)])
        #expect(screen.configureCount == 2)
        #expect(screen.pagination.pagesLoaded == 2)
        #expect(screen.pagination.nextCursor == 3)
    }

    @Test("a page asked for in a view's body tracks none of the list's state")
    func pageTracksNothing() async throws {
        mock.respond(page: 1, posts: [1, 2, 3])
        mock.respond(page: 2, posts: [4, 5, 6])
        let screen = makeScreen()
        await screen.loadFirstPage()
        let (task, changes) = trackingChanges { screen.loadNextPageIfNeeded(currentIndex: 2) }
        await task?.finish()
        #expect(ids(screen) == [1, 2, 3, 4, 5, 6])
        #expect(changes.value == 0)
    }

    @Test("a first page reloaded from a view's body tracks none of the list's state")
    func firstPageTracksNothing() async throws {
        mock.respond(page: 1, posts: [1, 2, 3])
        mock.respond(page: 1, posts: [1, 2, 3])
        let screen = makeScreen()
        await screen.loadFirstPage()
        let (task, changes) = trackingChanges { screen.startLoadingFirstPage(policy: .force) }
        await task.finish()
        #expect(mock.requests.count == 2)
        #expect(changes.value == 0)
    }

    @Test("a next page before the first page does nothing")
    func nextBeforeFirst() async throws {
        let screen = makeScreen()
        await screen.loadNextPage()
        #expect(screen.loadNextPageIfNeeded(currentIndex: 0) == nil)
        #expect(mock.requests.isEmpty)
        #expect(screen.loadingState == LoadingState())
    }

    @Test("at most one next page is in flight; a page is applied once")
    func oneNextPageInFlight() async throws {
        mock.respond(page: 1, posts: [1, 2, 3])
        let gate = MockTransport.Gate()
        mock.respond(page: 2, posts: [4, 5, 6], after: gate)
        let screen = makeScreen()
        await screen.loadFirstPage()
        let first = try #require(screen.loadNextPageIfNeeded(currentIndex: 2))
        await gate.waitForArrivals()
        #expect(screen.loadingState.activity == .loadingNextPage)
        #expect(screen.loadingState.placeholder == .content)
        #expect(screen.loadNextPageIfNeeded(currentIndex: 2) == nil)
        let second = Task { await screen.loadNextPage() }
        await second.valuePropagatingCancellation
        gate.open()
        await first.finish()
        #expect(ids(screen) == [1, 2, 3, 4, 5, 6])
        #expect(mock.requests.count == 2)
        #expect(screen.changes == [.replaced, .appended(3..<6)])
    }

    @Test("a failed next page keeps the items; a retry asks for the same page")
    func failedPageRetried() async throws {
        mock.respond(page: 1, posts: [1, 2, 3])
        mock.respond(to: "/posts?page=2&per_page=3", with: .text("busy", status: 503))
        mock.respond(page: 2, posts: [4, 5])
        let screen = makeScreen()
        await screen.loadFirstPage()
        await screen.loadNextPage()
        #expect(ids(screen) == [1, 2, 3])
        #expect(screen.pagination.pageError != nil)
        #expect(screen.loadingState.error == nil)
        #expect(screen.loadingState.placeholder == .content)
        #expect(screen.failures.count == 1)
        #expect(screen.loadNextPageIfNeeded(currentIndex: 2) == nil)
        await screen.loadNextPage()
        #expect(ids(screen) == [1, 2, 3, 4, 5])
        #expect(screen.pagination.pageError == nil)
        #expect(!screen.pagination.hasMorePages)
        #expect(
            mock.requests.map(\.url?.query) == [
                "page=1&per_page=3", "page=2&per_page=3", "page=2&per_page=3",
            ]
        )
    }

    @Test("items shifted between pages are neither duplicated nor dropped")
    func shiftedPages() async throws {
        mock.respond(page: 1, posts: [10, 9, 8])
        // Post 11 was published meanwhile: page 2 starts with 8 again.
        mock.respond(page: 2, posts: [8, 7, 6])
        mock.respond(page: 3, posts: [5, 5, 4])
        let screen = makeScreen()
        await screen.loadFirstPage()
        await screen.loadNextPage()
        await screen.loadNextPage()
        #expect(ids(screen) == [10, 9, 8, 7, 6, 5, 4])
        #expect(screen.changes == [.replaced, .appended(3..<5), .appended(5..<7)])
    }

    @Test("the infinite-scroll trigger waits for the prefetch distance")
    func prefetchDistance() async throws {
        mock.respond(page: 1, posts: [1, 2, 3])
        let screen = makeScreen()
        screen.prefetchDistance = 1
        await screen.loadFirstPage()
        #expect(screen.loadNextPageIfNeeded(currentIndex: 0) == nil)
        mock.respond(page: 2, posts: [4])
        let task = try #require(screen.loadNextPageIfNeeded(currentIndex: 1))
        await task.finish()
        #expect(ids(screen) == [1, 2, 3, 4])
    }

    @Test("a forced reload supersedes a next page in flight and reloads every page held")
    func forcedReloadSupersedesNextPage() async throws {
        mock.respond(page: 1, posts: [1, 2, 3])
        mock.respond(page: 2, posts: [4, 5, 6])
        let gate = MockTransport.Gate(honorsCancellation: false)
        mock.respond(page: 3, posts: [7, 8, 9], after: gate)
        // Item 0 was published: the reload goes on to page 3, which holds item 6, the
        // last one shown.
        mock.respond(page: 1, posts: [0, 1, 2])
        mock.respond(page: 2, posts: [3, 4, 5])
        mock.respond(page: 3, posts: [6, 7, 8])
        let recorder = EventRecorder()
        let screen = makeScreen(monitor: recorder)
        await screen.loadFirstPage()
        await screen.loadNextPage()
        let stale = try #require(screen.loadNextPageIfNeeded(currentIndex: 5))
        await gate.waitForArrivals()
        await screen.loadFirstPage(policy: .force)
        await stale.finish()
        gate.open()
        await recorder.waitForEvents(1) { $0.kind == .discarded }
        #expect(ids(screen) == Array(0...8))
        #expect(screen.pagination.pagesLoaded == 3)
        #expect(screen.pagination.nextCursor == 4)
        #expect(screen.changes.last == .replaced)
    }

    @Test("ifNeeded keeps a loaded list")
    func firstPageIfNeeded() async throws {
        mock.respond(page: 1, posts: [1, 2, 3])
        let screen = makeScreen()
        await screen.loadFirstPage()
        await screen.loadFirstPage()
        #expect(mock.requests.count == 1)
    }

    @Test("a head refresh keeps the loaded pages and where pagination is")
    func refreshKeepsPages() async throws {
        mock.respond(page: 1, posts: [9, 8, 7])
        mock.respond(page: 2, posts: [6, 5, 4])
        mock.respond(to: "/posts?since=9", with: .json(Post.list([11, 10, 9])))
        let feed = PagedFeed(transport: mock)
        await feed.loadFirstPage()
        await feed.loadNextPage()
        await feed.refresh()
        #expect(feed.loadingState.content?.map(\.id) == [11, 10, 9, 8, 7, 6, 5, 4])
        #expect(feed.pagination.pagesLoaded == 2)
        #expect(feed.pagination.nextCursor == 3)
        #expect(feed.changes == [.replaced, .appended(3..<6), .inserted(IndexSet(0..<2))])
        mock.respond(page: 3, posts: [3, 2, 1])
        await feed.loadNextPage()
        #expect(feed.loadingState.content?.map(\.id) == [11, 10] + (1...9).reversed())
    }

    @Test("a refresh supersedes a next page in flight, whose late result is never applied")
    func refreshSupersedesNextPage() async throws {
        mock.respond(page: 1, posts: [9, 8, 7])
        let stale = MockTransport.Gate(honorsCancellation: false)
        mock.respond(page: 2, posts: [6, 5, 4], after: stale)
        mock.respond(to: "/posts?since=9", with: .json(Post.list([10, 9])))
        let recorder = EventRecorder()
        let feed = PagedFeed(
            webservice: Webservice(transport: mock, configuration: .init(monitor: recorder))
        )
        await feed.loadFirstPage()
        let page = feed.startLoadingNextPage()
        await stale.waitForArrivals()
        #expect(feed.loadingState.activity == .loadingNextPage)
        await feed.refresh()
        await page.finish()
        stale.open()
        await recorder.waitForEvents(1) { $0.kind == .discarded }
        #expect(feed.loadingState.content?.map(\.id) == [10, 9, 8, 7])
        #expect(feed.pagination.pagesLoaded == 1)
        #expect(feed.changes == [.replaced, .inserted(IndexSet(0..<1))])
    }

    @Test("a refresh that cannot merge a paginated list shows its first page, and pages follow")
    func refreshReplacementRestartsPagination() async throws {
        mock.respond(page: 1, posts: [9, 8, 7])
        mock.respond(to: "/posts?since=9", with: .json(Post.list([30, 29, 28])))
        mock.respond(page: 1, posts: [30, 29, 28])
        let feed = PagedFeed(transport: mock)
        await feed.loadFirstPage()
        await feed.refresh()
        #expect(feed.changes.last == .replaced)
        #expect(feed.pagination.pagesLoaded == 1)
        #expect(feed.pagination.nextCursor == 2)
        mock.respond(page: 2, posts: [27, 26, 25])
        await feed.loadNextPage()
        #expect(feed.loadingState.content?.map(\.id) == [30, 29, 28, 27, 26, 25])
        #expect(mock.requests.count == 4)
    }

    @Test("a long run of pages keeps every item once and in order")
    func longRun() async throws {
        let pages = 200
        for page in 1...pages {
            let first = (page - 1) * 3
            mock.respond(
                page: page,
                posts: page == pages ? [first] : [first, first + 1, first + 2]
            )
        }
        let screen = makeScreen()
        await screen.loadAllPages()
        #expect(ids(screen) == Array(0...(pages - 1) * 3))
        #expect(screen.pagination.pagesLoaded == pages)
        #expect(screen.changes.count == pages)
        try mock.verifyAllConsumed()
    }

    @Test("a rejected page keeps the list and the cursor")
    func rejectedPage() async throws {
        mock.respond(page: 1, posts: [1, 2, 3])
        let screen = RejectingScreen(transport: mock)
        await screen.loadFirstPage()
        mock.respond(to: "/posts?page=2&per_page=3", with: .json(Post.list([666])))
        await screen.loadNextPage()
        #expect(screen.loadingState.content?.map(\.id) == [1, 2, 3])
        #expect(screen.pagination.pageError == .rejected("the number of the beast"))
        #expect(screen.pagination.nextCursor == 2)
        mock.respond(page: 2, posts: [4])
        await screen.loadNextPage()
        #expect(screen.loadingState.content?.map(\.id) == [1, 2, 3, 4])
    }
}

/// Refuses pages holding post 666.
@MainActor
final class RejectingScreen: Paginating {
    let loading = LoadingCore<[Post]>()
    let webservice: Webservice

    init(transport: any Transport) {
        webservice = Webservice(transport: transport)
    }

    func configure(value: [Post]) {}

    func validate(_ value: [Post]) throws {
        if value.contains(where: { $0.id == 666 }) {
            throw Beast()
        }
    }

    func resource(forPage page: Int?) -> Resource<Page<Post, Int>> {
        .pageNumber(url: URL(string: "https://api.example.com/posts")!, page: page, size: 3)
    }

    struct Beast: Error, CustomStringConvertible {
        var description: String { "the number of the beast" }
    }
}
