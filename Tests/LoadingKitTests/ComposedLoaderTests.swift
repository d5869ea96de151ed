import Foundation
import LoadingKitTesting
import Testing

@testable import LoadingKit

/// One screen that loads, refreshes and pages behaves as one loader: the numbered
/// cases of the issue "The three protocols compose", each a rule.
@MainActor
@Suite("A screen that loads, refreshes and pages", .timeLimit(.minutes(1)))
struct ComposedLoaderTests {
    let mock = MockTransport()

    func script(page number: Int, _ ids: some Sequence<Int>, headers: HeaderFields = [:]) {
        mock.respond(
            to: "/posts?page=\(number)&per_page=3",
            with: .json(Post.list(ids), headers: headers)
        )
    }

    func requested() -> [String] {
        mock.requests.compactMap { $0.url?.query }
    }

    @Test("1. a refresh as the first load loads the first page; the next page is page 2")
    func refreshAsFirstLoad() async throws {
        script(page: 1, [9, 8, 7])
        script(page: 2, [6, 5, 4])
        let feed = PagedFeed(transport: mock)
        await feed.refresh()
        await feed.loadNextPage()
        #expect(feed.ids == [9, 8, 7, 6, 5, 4])
        #expect(feed.pagination.pagesLoaded == 2)
        #expect(requested() == ["page=1&per_page=3", "page=2&per_page=3"])
    }

    @Test("2. reload() after three pages reloads the three pages; the next page is page 4")
    func reloadKeepsTheWindow() async throws {
        for number in 1...3 {
            script(page: number, (1...3).map { 30 - 3 * number + $0 })
        }
        let feed = PagedFeed(transport: mock)
        await feed.loadFirstPage()
        await feed.loadNextPage()
        await feed.loadNextPage()
        script(page: 1, [31, 30, 29])
        script(page: 2, [28, 27, 26])
        script(page: 3, [25, 24, 23])
        await feed.reload()
        #expect(feed.ids == Array((23...31).reversed()))
        #expect(feed.pagination.pagesLoaded == 3)
        #expect(feed.changes.last == .replaced)
        script(page: 4, [22, 21, 20])
        await feed.loadNextPage()
        #expect(requested().last == "page=4&per_page=3")
        #expect(feed.pagination.pagesLoaded == 4)
    }

    @Test("2. a reload through generic code is still a reload of the pages (no casts)")
    func reloadThroughGenericCode() async throws {
        script(page: 1, [9, 8, 7])
        script(page: 2, [6, 5, 4])
        let feed = PagedFeed(transport: mock)
        await feed.loadFirstPage()
        await feed.loadNextPage()
        script(page: 1, [9, 8, 7])
        script(page: 2, [6, 5, 4])
        func reload(_ loader: some Loading) async { await loader.reload() }
        await reload(feed)
        #expect(feed.ids == [9, 8, 7, 6, 5, 4])
        #expect(feed.pagination.pagesLoaded == 2)
        #expect(mock.requests.count == 4)
    }

    @Test("3. loadingDidAppear() before the first page loads it")
    func appearLoadsTheFirstPage() async throws {
        script(page: 1, [9, 8, 7])
        let feed = PagedFeed(transport: mock)
        let task = try #require(feed.loadingDidAppear())
        await task.finish()
        #expect(feed.ids == [9, 8, 7])
        #expect(feed.pagination.pagesLoaded == 1)
        #expect(feed.loadingDidAppear() != nil)
        #expect(mock.requests.count == 1)
    }

    @Test("4. resetLoading() cancels, empties state and pages, and observers see it")
    func resetKeepsObservers() async throws {
        script(page: 1, [9, 8, 7])
        let gate = MockTransport.Gate(honorsCancellation: false)
        mock.respond(to: "/posts?page=2&per_page=3", with: .json(Post.list([6])), after: gate)
        let feed = PagedFeed(transport: mock)
        await feed.loadFirstPage()
        var states = feed.states.makeAsyncIterator()
        _ = await states.next()
        let page = feed.startLoadingNextPage()
        await gate.waitForArrivals()
        feed.resetLoading()
        gate.open()
        await page.finish()
        #expect(feed.loadingState == LoadingState())
        #expect(!feed.pagination.hasFirstPage)
        #expect(await states.next()?.activity == .loadingNextPage)
        #expect(await states.next() == LoadingState())
        script(page: 1, [9, 8, 7])
        await feed.loadFirstPage()
        #expect(await states.next()?.activity == .loading)
        #expect(await states.next()?.content?.map(\.id) == [9, 8, 7])
    }

    @Test("4. resetLoading() cancels the load, and observers stay and see the empty state")
    func assignedStateKeepsObservers() async throws {
        let gate = MockTransport.Gate(honorsCancellation: false)
        mock.respond(to: "/posts?page=1&per_page=3", with: .json(Post.list([9])), after: gate)
        let feed = PagedFeed(transport: mock)
        var states = feed.states.makeAsyncIterator()
        #expect(await states.next() == LoadingState())
        let load = feed.startLoadingFirstPage()
        await gate.waitForArrivals()
        #expect(await states.next()?.activity == .loading)
        feed.resetLoading()
        gate.open()
        await load.finish()
        #expect(await states.next() == LoadingState())
        #expect(feed.loadingState.content == nil)
        script(page: 1, [9, 8, 7])
        await feed.loadFirstPage()
        #expect(await states.next()?.activity == .loading)
        #expect(await states.next()?.content?.map(\.id) == [9, 8, 7])
    }

    @Test("4. a reset with pages held: pages are not loaded on it, and are forgotten")
    func assignedStateForgetsPages() async throws {
        script(page: 1, [9, 8, 7])
        script(page: 2, [6, 5, 4])
        let feed = PagedFeed(transport: mock)
        feed.maxPages = 1
        await feed.loadFirstPage()
        await feed.loadNextPage()
        var states = feed.states.makeAsyncIterator()
        _ = await states.next()
        feed.resetLoading()
        await feed.loadNextPage()
        await feed.loadPreviousPage()
        feed.cancelLoading()
        #expect(mock.requests.count == 2)
        #expect(await states.next() == LoadingState())
        #expect(!feed.pagination.hasFirstPage)
        script(page: 1, [9, 8, 7])
        await feed.refresh()
        #expect(feed.ids == [9, 8, 7])
        #expect(feed.pagination.pagesLoaded == 1)
    }

    @Test("5. a next page supersedes a background reload in flight; its late answer is dropped")
    func nextPageSupersedesBackgroundReload() async throws {
        script(page: 1, [9, 8, 7])
        let recorder = EventRecorder()
        let feed = PagedFeed(
            webservice: Webservice(transport: mock, configuration: .init(monitor: recorder))
        )
        await feed.loadFirstPage()
        let gate = MockTransport.Gate(honorsCancellation: false)
        mock.respond(to: "/posts?page=1&per_page=3", with: .json(Post.list([99])), after: gate)
        let reload = feed.startLoadingFirstPage(policy: .background)
        await gate.waitForArrivals()
        #expect(feed.loadingState.activity == .reloading)
        script(page: 2, [6, 5, 4])
        await feed.loadNextPage()
        await reload.finish()
        gate.open()
        await recorder.waitForEvents(1) { $0.kind == .discarded }
        #expect(feed.ids == [9, 8, 7, 6, 5, 4])
        #expect(feed.pagination.pagesLoaded == 2)
    }

    @Test("5. a next page does not start while a refresh is in flight: it starts after it")
    func nextPageWaitsForForegroundLoads() async throws {
        script(page: 1, [9, 8, 7])
        let feed = PagedFeed(transport: mock)
        await feed.loadFirstPage()
        let gate = MockTransport.Gate()
        mock.respond(to: "/posts?since=9", with: .json(Post.list([10, 9])), after: gate)
        script(page: 2, [6, 5, 4])
        let refresh = feed.startRefreshing()
        await gate.waitForArrivals()
        let page = feed.startLoadingNextPage()
        #expect(feed.pagination.isNextPageDeferred)
        #expect(mock.requests.count == 2)
        gate.open()
        await refresh.finish()
        await page.finish()
        #expect(feed.ids == [10, 9, 8, 7, 6, 5, 4])
        #expect(mock.requests.count == 3)
    }

    @Test(
        "a refresh of a window whose head was dropped reloads the pages held in place; the new head shows when scrolled back up"
    )
    func refreshBelowTheHead() async throws {
        script(page: 1, [9, 8, 7])
        script(page: 2, [6, 5, 4])
        let feed = PagedFeed(transport: mock)
        feed.maxPages = 1
        await feed.loadFirstPage()
        await feed.loadNextPage()
        #expect(feed.pagination.hasPreviousPages)
        script(page: 2, [7, 6, 5])
        script(page: 1, [10, 9, 8])
        let refresh = feed.startRefreshing()
        #expect(feed.loadingState.activity == .refreshing)
        await refresh.finish()
        #expect(feed.ids == [7, 6, 5])
        #expect(feed.pagination.hasPreviousPages)
        #expect(feed.pagination.pagesLoaded == 1)
        #expect(mock.requestCount(for: "/posts?page=1&per_page=3") == 1)
        #expect(mock.requestCount(for: "/posts?since=6") == 0)
        await feed.loadPreviousPage()
        #expect(feed.ids == [10, 9, 8])
    }

    @Test("a refresh that succeeds after a failed next page leaves no standing page error")
    func refreshClearsPageError() async throws {
        script(page: 1, [9, 8, 7])
        mock.respond(to: "/posts?page=2&per_page=3", with: .text("away", status: 503))
        mock.respond(to: "/posts?since=9", with: .json(Post.list([10, 9, 8])))
        let feed = PagedFeed(transport: mock)
        await feed.loadFirstPage()
        await feed.loadNextPage()
        #expect(feed.pagination.pageError != nil)
        #expect(feed.loadNextPageIfNeeded(currentIndex: 2) == nil)
        await feed.refresh()
        #expect(feed.ids == [10, 9, 8, 7])
        #expect(feed.pagination.pageError == nil)
        script(page: 2, [6, 5, 4])
        await feed.loadNextPageIfNeeded(currentIndex: 3)?.finish()
        #expect(feed.ids == [10, 9, 8, 7, 6, 5, 4])
    }

    @Test("a first page that names a page before it still merges refreshes at the head")
    func firstPageWithPreviousLink() async throws {
        let base = "https://api.example.com/timeline"
        let links = "<\(base)?max_id=7>; rel=\"next\", <\(base)?min_id=9>; rel=\"prev\""
        mock.respond(to: "/timeline", with: .json(Post.list([9, 8, 7]), headers: ["Link": links]))
        mock.respond(to: "/timeline?since=9", with: .json(Post.list([10, 9, 8])))
        let timeline = Timeline(transport: mock, base: base)
        await timeline.loadFirstPage()
        #expect(timeline.pagination.hasPreviousPages)
        await timeline.refresh()
        #expect(timeline.loadingState.content?.map(\.id) == [10, 9, 8, 7])
        #expect(timeline.pagination.pagesLoaded == 1)
    }

    @Test("a reload of the pages held shows an overriding itemsToAppend the pages before")
    func reloadWithCustomFilter() async throws {
        script(page: 1, [9, 8, 7])
        script(page: 2, [7, 6, 5])
        let list = FilteringList(transport: mock)
        await list.loadFirstPage()
        await list.loadNextPage()
        #expect(list.loadingState.content?.map(\.id) == [9, 8, 7, 6, 5])
        script(page: 1, [9, 8, 7])
        script(page: 2, [7, 6, 5])
        await list.reload()
        #expect(list.loadingState.content?.map(\.id) == [9, 8, 7, 6, 5])
        #expect(list.pagination.pagesLoaded == 2)
    }

    @Test("6. a slow observer receives every state, in order")
    func observersDropNothing() async throws {
        let feed = PagedFeed(transport: mock)
        let states = feed.states
        for number in 1...50 {
            script(page: 1, [number])
            await feed.loadFirstPage(policy: .force)
        }
        var seen: [[Int]?] = []
        for await state in states {
            seen.append(state.content?.map(\.id))
            if seen.count == 101 { break }
        }
        // Each load shows its start (the content before) and its end.
        let shown: [Int] = seen.compactMap { $0?.first }
        var expected: [Int] = [1]
        for number in 2...50 {
            expected += [number - 1, number]
        }
        #expect(seen.count == 101)
        #expect(shown == expected)
    }

    @Test("7. a generic conformer gets the emptiness and de-duplication defaults")
    func genericConformer() async throws {
        mock.respond(to: "/list", with: .json([Int]()))
        let screen = GenericScreen<[Int]>(transport: mock)
        await screen.load(resource: Resource(url: URL(string: "https://api.example.com/list")!))
        #expect(screen.loadingState.placeholder == .empty)
        #expect(screen.configured == 0)
        script(page: 1, [3, 2, 1])
        script(page: 2, [2, 1, 0])
        let list = GenericList<Post>(transport: mock)
        await list.loadFirstPage()
        await list.loadNextPage()
        #expect(list.loadingState.content?.map(\.id) == [3, 2, 1, 0])
    }

    @Test("8. the total count and the Link relations reach the pagination state")
    func pageMetadata() async throws {
        script(page: 1, [9, 8, 7], headers: ["X-Total-Count": "8"])
        let feed = PagedFeed(transport: mock)
        await feed.loadFirstPage()
        #expect(feed.pagination.totalCount == 8)
        #expect(feed.pagination.firstCursor == 1)
        #expect(feed.pagination.lastCursor == 3)
        #expect(feed.pagination.nextCursor == 2)
        #expect(!feed.pagination.hasPreviousPages)
    }

    @Test("9. a list drawn from the state needs no configure and no copy of its own")
    func listsWithoutCopies() async throws {
        script(page: 1, [9, 8, 7])
        script(page: 2, [6, 5, 4])
        let feed = PagedFeed(transport: mock)
        await feed.loadFirstPage()
        await feed.loadNextPage()
        #expect(feed.changes == [.replaced, .appended(3..<6)])
        #expect(feed.loadingState.content?.count == 6)
    }

    @Test("10. the loader's kind decides what reload and appear mean, in generic code too")
    func lifecycleFollowsTheConformance() async throws {
        #expect(PagedFeed.kind.firstLoad != nil)
        #expect(FeedScreen.kind.firstLoad == nil)
        script(page: 1, [9, 8, 7])
        let feed = PagedFeed(transport: mock)
        func appear(_ loader: some Loading) -> LoadTask? { loader.loadingDidAppear() }
        await appear(feed)?.finish()
        #expect(feed.pagination.pagesLoaded == 1)
    }
}

/// A list whose own `itemsToAppend(from:)` drops what `loadingState.content` shows.
@MainActor
private final class FilteringList: Paginating {
    let loading = LoadingCore<[Post]>()
    let webservice: Webservice

    init(transport: any Transport) {
        webservice = Webservice(transport: transport)
    }

    func resource(forPage page: Int?) -> Resource<Page<Post, Int>> {
        .pageNumber(url: URL(string: "https://api.example.com/posts")!, page: page, size: 3)
    }

    func itemsToAppend(from page: [Post]) -> [Post] {
        let shown = Set((loadingState.content ?? []).map(\.id))
        return page.filter { !shown.contains($0.id) }
    }
}

/// A timeline whose first page links to newer items (`rel="prev"`), as Mastodon's does.
@MainActor
private final class Timeline: Paginating, Refreshable {
    let loading = LoadingCore<[Post]>()
    let webservice: Webservice
    let base: String

    init(transport: any Transport, base: String) {
        webservice = Webservice(transport: transport)
        self.base = base
    }

    func resource(forPage cursor: URL?) -> Resource<Page<Post, URL>> {
        .linked(url: cursor ?? URL(string: base)!)
    }

    func refreshResource(newerThan first: Post?) -> Resource<[Post]> {
        Resource(url: URL(string: "\(base)?since=\(first?.id ?? 0)")!)
    }
}

/// A loader generic over its value, declared without constraints.
@MainActor
private final class GenericScreen<Value: Sendable>: Loading {
    let loading = LoadingCore<Value>()
    let webservice: Webservice
    private(set) var configured = 0

    init(transport: any Transport) {
        webservice = Webservice(transport: transport)
    }

    func configure(value: Value) {
        configured += 1
    }
}

/// A paged list generic over its items, declared without `Identifiable`.
@MainActor
private final class GenericList<Item: Codable & Sendable>: Paginating {
    let loading = LoadingCore<[Item]>()
    let webservice: Webservice

    init(transport: any Transport) {
        webservice = Webservice(transport: transport)
    }

    func resource(forPage page: Int?) -> Resource<Page<Item, Int>> {
        .pageNumber(url: URL(string: "https://api.example.com/posts")!, page: page, size: 3)
    }
}
