import Foundation
import LoadingKitNetworking
import LoadingKitTesting
import Testing

@testable import LoadingKit

/// A screen changes its content through the kit: the state, the stored value and the
/// other screens showing the resource change with it, the change is reported, and a
/// later refresh or page merges with the edited content.
@MainActor
@Suite("Local edits", .timeLimit(.minutes(1)))
struct LocalEditTests {
    let mock = MockTransport()

    private static let posts = Resource<[Post]>(url: URL(string: "https://api.example.com/posts")!)

    private func feed(showing ids: [Int]) async -> FeedScreen {
        mock.respond(to: "/posts", with: .json(Post.list(ids)))
        let feed = FeedScreen(transport: mock)
        await feed.refresh()
        return feed
    }

    private func pagedFeed(pages: Int, maxPages: Int? = nil) async -> PagedFeed {
        let feed = PagedFeed(transport: mock)
        feed.maxPages = maxPages
        for number in 1...pages {
            mock.respond(page: number, posts: (1...3).map { 3 * (number - 1) + $0 })
        }
        await feed.loadFirstPage()
        for _ in 1..<pages {
            await feed.loadNextPage()
        }
        return feed
    }

    /// Two screens on one webservice, both showing posts 3, 2 and 1.
    private func twoScreens() async -> (Webservice, PostsScreen, PostsScreen) {
        mock.respond(to: "/posts", with: .json(Post.list([3, 2, 1])))
        let webservice = Webservice(transport: mock)
        let first = PostsScreen(webservice: webservice)
        let second = PostsScreen(webservice: webservice)
        await first.load(resource: Self.posts)
        await second.load(resource: Self.posts)
        return (webservice, first, second)
    }

    // MARK: - The edits

    @Test("removing a row changes the state, configures the content and reports the indices")
    func removingReportsTheRow() async {
        let feed = await feed(showing: [5, 4, 3, 2, 1])
        #expect(feed.edit(.removing(id: 3)))
        #expect(feed.loadingState.content?.map(\.id) == [5, 4, 2, 1])
        #expect(feed.ids == [5, 4, 2, 1])
        #expect(feed.changes.last == .removed(2..<3))
        #expect(!feed.edit(.removing(id: 3)))
        #expect(feed.changes.last == .removed(2..<3))
    }

    @Test("removing several rows reports each run of adjacent rows, the last run first")
    func removingRunsReportsEachRun() async {
        let feed = await feed(showing: [6, 5, 4, 3, 2, 1])
        #expect(feed.edit(.removing { [5, 4, 1].contains($0.id) }))
        #expect(feed.ids == [6, 3, 2])
        #expect(feed.changes.suffix(2) == [.removed(5..<6), .removed(1..<3)])
    }

    @Test("replacing an item keeps its place; inserting one shown moves it")
    func replacingAndInserting() async {
        let feed = await feed(showing: [3, 2, 1])
        let renamed = Post(id: 2, title: "Renamed")
        #expect(feed.edit(.replacing(renamed)))
        #expect(feed.loadingState.content?[1] == renamed)
        #expect(feed.changes.suffix(2) == [.removed(1..<2), .inserted([1])])
        #expect(feed.edit(.inserting(Post(9), at: 0)))
        #expect(feed.ids == [9, 3, 2, 1])
        #expect(feed.changes.last == .inserted([0]))
        #expect(feed.edit(.inserting(Post(1), at: 1)))
        #expect(feed.ids == [9, 1, 3, 2])
        #expect(feed.changes.suffix(2) == [.removed(3..<4), .inserted([1])])
        #expect(!feed.edit(.replacing(Post(42))))
    }

    @Test("with nothing shown there is nothing to edit")
    func nothingShown() {
        let feed = FeedScreen(transport: mock)
        #expect(!feed.edit(.inserting(Post(1), at: 0)))
        #expect(feed.loadingState.content == nil)
        #expect(feed.changes.isEmpty)
    }

    // MARK: - Sharing

    @Test(
        "an edit on one screen reaches the stored value and every screen showing it, in that turn"
    )
    func editReachesOtherScreens() async throws {
        let (webservice, first, second) = await twoScreens()

        #expect(first.edit(.removing(id: 2)))
        #expect(second.ids == [3, 1])
        #expect(second.configured == [[3, 2, 1], [3, 1]])
        #expect(first.configured == [[3, 2, 1], [3, 1]])
        #expect(webservice.storedValue(for: Self.posts)?.value.map(\.id) == [3, 1])

        // A third screen opening the resource shows the edited value, with no request.
        let third = PostsScreen(webservice: webservice)
        await third.load(resource: Self.posts)
        #expect(third.ids == [3, 1])
        #expect(mock.requests.count == 1)
        #expect(second.configured.count == 2)
    }

    @Test("the answer to a request sent before an edit does not undo it")
    func olderAnswerKeepsTheEdit() async {
        mock.respond(to: "/posts", with: .json(Post.list([3, 2, 1])))
        let gate = MockTransport.Gate()
        mock.respond(to: "/posts", with: .json(Post.list([3, 2, 1])), after: gate)
        let webservice = Webservice(transport: mock)
        let screen = PostsScreen(webservice: webservice)
        await screen.load(resource: Self.posts)
        let reload = screen.startLoading(resource: Self.posts, policy: .force)
        await gate.waitForArrivals()

        screen.edit(.removing(id: 2))
        gate.open()
        await reload.finish()
        #expect(screen.ids == [3, 1])
        #expect(screen.loadingState.error == nil)
        #expect(webservice.storedValue(for: Self.posts)?.value.map(\.id) == [3, 1])
    }

    // MARK: - Later merges

    @Test("a refresh does not bring back an item removed, even when the server still lists it")
    func refreshLeavesRemovedItemOut() async {
        let feed = await feed(showing: [5, 4, 3, 2, 1])
        feed.edit(.removing(id: 4))
        mock.respond(to: "/posts?since=5", with: .json(Post.list([6, 5, 4, 3])))
        await feed.refresh()
        #expect(feed.ids == [6, 5, 3, 2, 1])
        #expect(feed.changes.last == .inserted([0]))
    }

    @Test("an edit made while a refresh is in flight is merged with, not overwritten")
    func editDuringRefreshIsKept() async {
        let feed = await feed(showing: [5, 4, 3, 2, 1])
        let gate = MockTransport.Gate()
        mock.respond(to: "/posts?since=5", with: .json(Post.list([7, 6, 5, 4])), after: gate)
        let refresh = feed.startRefreshing()
        await gate.waitForArrivals()

        feed.edit(.removing(id: 3))
        gate.open()
        await refresh.finish()
        #expect(feed.ids == [7, 6, 5, 4, 2, 1])
        #expect(feed.changes.last == .inserted([0, 1]))
    }

    @Test("a full reload shows the server's list again, removed items included")
    func fullReloadForgetsRemovedItems() async {
        let feed = await feed(showing: [3, 2, 1])
        feed.edit(.removing(id: 2))
        mock.respond(to: "/posts", with: .json(Post.list([3, 2, 1])))
        await feed.reload(policy: .force)
        #expect(mock.requests.count == 2)
        #expect(feed.ids == [3, 2, 1])
    }

    @Test("a page after an edit is appended after the edited rows, without the removed item")
    func pageAfterEdit() async {
        let feed = await pagedFeed(pages: 2)
        feed.edit(.removing(id: 2))
        feed.edit(.inserting(Post(100), at: 0))
        #expect(feed.ids == [100, 1, 3, 4, 5, 6])
        // The server shifted item 2 onto the next page: it stays removed.
        mock.respond(page: 3, posts: [2, 7, 8])
        await feed.loadNextPage()
        #expect(feed.ids == [100, 1, 3, 4, 5, 6, 7, 8])
        #expect(feed.changes.last == .appended(6..<8))
    }

    @Test("the pages count the items an edit left them, so a window drops exactly its head page")
    func windowAfterEdit() async {
        let feed = await pagedFeed(pages: 2, maxPages: 2)
        feed.edit(.removing(id: 2))
        feed.edit(.inserting(Post(100), at: 0))
        feed.edit(.removing(id: 5))
        #expect(feed.ids == [100, 1, 3, 4, 6])
        mock.respond(page: 3, posts: [7, 8, 9])
        await feed.loadNextPage()
        // The head page held 100, 1 and 3 after the edits.
        #expect(feed.ids == [4, 6, 7, 8, 9])
        #expect(feed.changes.suffix(2) == [.appended(5..<8), .removed(0..<3)])
        #expect(feed.pagination.pagesLoaded == 2)
    }

    @Test("over HTTP, a reload whose first page the server confirms keeps that page edited")
    func reloadKeepsEditedStoredPage() async throws {
        let server = try LoopbackServer()
        let secondPages = Locked(0)
        server.route("/posts") { request in
            if request.query("page") == "3" {
                return .json(Post.list([]))  // looked for as 6, shown last, is gone
            }
            guard request.query("page") == "2" else {
                return .revalidating(request, entityTag: #""p1""#, .json(Post.list([1, 2, 3])))
            }
            let served = secondPages.withLock { count in
                defer { count += 1 }
                return count
            }
            return served == 0
                ? .json(Post.list([4, 5, 6])) : .json(Post.list([4, 5, 10]))
        }
        let feed = PagedScreen<Post, Int>(
            transport: URLSessionTransport(configuration: .init(timeout: 10))
        ) { page in
            .pageNumber(url: server.url("/posts"), page: page, size: 3)
        }
        await feed.loadFirstPage()
        await feed.loadNextPage()
        feed.edit(.removing(id: 2))

        await feed.reload()
        #expect(
            server.requests.last(where: { $0.query("page") == "1" })?.header("If-None-Match")
                == #""p1""#
        )
        #expect(feed.items.map(\.id) == [1, 3, 4, 5, 10])
        #expect(feed.pagination.pagesLoaded == 2)
    }

    @Test("an item replaced at a page's end or start stays in its page")
    func replacingAtPageBoundaries() async {
        let feed = await pagedFeed(pages: 2, maxPages: 2)
        feed.edit(.replacing(Post(id: 3, title: "Three")))
        feed.edit(.replacing(Post(id: 4, title: "Four")))
        mock.respond(page: 3, posts: [7, 8, 9])
        await feed.loadNextPage()
        #expect(feed.ids == [4, 5, 6, 7, 8, 9])
        #expect(feed.loadingState.content?.first?.title == "Four")
        #expect(feed.changes.suffix(2) == [.appended(6..<9), .removed(0..<3)])
    }

    @Test("an edit on one paginated screen reaches another showing the same list, pages and all")
    func editSharedBetweenPaginatedScreens() async {
        let webservice = Webservice(transport: mock)
        let first = PagedFeed(webservice: webservice)
        let second = PagedFeed(webservice: webservice)
        second.maxPages = 2
        for feed in [first, second] {
            for number in 1...2 {
                mock.respond(page: number, posts: (1...3).map { 3 * (number - 1) + $0 })
            }
            await feed.loadFirstPage()
            await feed.loadNextPage()
        }
        first.edit(.removing(id: 2))
        #expect(second.ids == [1, 3, 4, 5, 6])
        #expect(second.changes.last == .removed(1..<2))
        let firstPage = first.resource(forPage: nil)
        let stored = webservice.storedValue(for: firstPage)
        #expect(stored?.value.items.map(\.id) == [1, 3])

        mock.respond(page: 3, posts: [7, 8, 9])
        await second.loadNextPage()
        // The second screen's head page held two items after the edit.
        #expect(second.ids == [4, 5, 6, 7, 8, 9])
        #expect(second.changes.last == .removed(0..<2))
    }

    @Test("a refresh after every row was removed does not bring them back")
    func refreshAfterRemovingEverything() async {
        let feed = await feed(showing: [2, 1])
        feed.edit(.removing { _ in true })
        #expect(feed.loadingState.content?.isEmpty == true)
        #expect(feed.loadingState.placeholder == .empty)
        mock.respond(to: "/posts", with: .json(Post.list([3, 2, 1])))
        await feed.refresh()
        #expect(feed.loadingState.content?.map(\.id) == [3])
    }

    @Test("a removed row still tells where new items end: a refresh overlapping only it merges")
    func removedRowStillOverlaps() async {
        let feed = await feed(showing: [5, 4, 3, 2, 1])
        feed.followsPages = false
        feed.edit(.removing(id: 5))
        mock.respond(to: "/posts?since=4", with: .json(Post.list([6, 5])))
        await feed.refresh()
        #expect(feed.ids == [6, 4, 3, 2, 1])
        #expect(feed.changes.last == .inserted([0]))
    }

    @Test("an edit of a screen behind the stored value shows the stored value, edited")
    func editBehindStoredValue() async {
        let (webservice, first, second) = await twoScreens()
        // A newer value is stored; the screens hear of it only in a later main-actor
        // turn, and the edit comes first.
        let store = webservice.store
        let identity = Self.posts.identity
        let old = store.entry(for: identity)!
        _ = store.store(Post.list([4, 3, 2, 1]), for: identity, sequence: store.nextSequence()) {
            version in
            StoredEntry(
                value: Post.list([4, 3, 2, 1]),
                validators: old.validators,
                cacheFields: old.cacheFields,
                directives: old.directives,
                loadedAt: old.loadedAt,
                response: old.response,
                version: version,
                sequence: old.sequence,
                cost: old.cost
            )
        }

        first.edit(.removing(id: 2))
        #expect(first.ids == [4, 3, 1])
        #expect(second.ids == [4, 3, 1])
        #expect(webservice.storedValue(for: Self.posts)?.value.map(\.id) == [4, 3, 1])
    }

    @Test("a change of the whole list keeps the pages describing it")
    func wholeListChange() async {
        let feed = await pagedFeed(pages: 2, maxPages: 2)
        feed.edit(.changing { $0.removeLast(2) })
        #expect(feed.ids == [1, 2, 3, 4])
        #expect(feed.changes.last == .replaced)
        mock.respond(page: 3, posts: [7, 8, 9])
        await feed.loadNextPage()
        #expect(feed.ids == [4, 7, 8, 9])
        #expect(feed.changes.suffix(2) == [.appended(4..<7), .removed(0..<3)])
    }
}
