import Foundation
import LoadingKit
import LoadingKitTesting
import Testing

@MainActor
@Suite("Refreshable", .timeLimit(.minutes(1)))
struct RefreshableTests {
    let mock = MockTransport()

    /// A feed showing posts 10 down to 1, telling `monitor` what it decides.
    func loadedFeed(monitor: (any LoadingMonitor)? = nil) async -> FeedScreen {
        mock.respond(to: "/posts", with: .json(Post.list((1...10).reversed())))
        let feed = FeedScreen(transport: mock, monitor: monitor)
        await feed.refresh()
        return feed
    }

    @Test("a refresh prepends the new items and reports their exact indices")
    func prependsNewItems() async throws {
        let feed = await loadedFeed()
        mock.respond(to: "/posts?since=10", with: .json(Post.list([13, 12, 11, 10, 9])))
        await feed.refresh()
        #expect(feed.ids == [13, 12, 11] + (1...10).reversed())
        #expect(feed.changes == [.replaced, .inserted(IndexSet(0..<3))])
        #expect(feed.loadingState.content == feed.rows)
    }

    @Test("items of a refresh page older than the first item shown are not prepended")
    func olderItemsStayOut() async throws {
        mock.respond(to: "/posts", with: .json(Post.list([10, 9])))
        let feed = FeedScreen(transport: mock)
        await feed.refresh()
        mock.respond(to: "/posts?since=10", with: .json(Post.list([12, 11, 10, 9, 8, 7])))
        await feed.refresh()
        #expect(feed.ids == [12, 11, 10, 9])
        #expect(feed.changes == [.replaced, .inserted(IndexSet(0..<2))])
    }

    @Test("new items that follow a shown item leading the refresh page (pinned, bumped) are kept")
    func shownItemLeadsThePage() async throws {
        mock.respond(to: "/posts", with: .json(Post.list([10, 9, 8])))
        let feed = FeedScreen(transport: mock)
        await feed.refresh()
        mock.respond(to: "/posts?since=10", with: .json(Post.list([8, 12, 11, 10, 9])))
        await feed.refresh()
        #expect(feed.ids == [12, 11, 10, 9, 8])
        #expect(feed.changes == [.replaced, .inserted(IndexSet(0..<2))])
    }

    @Test("a refresh without new items changes nothing and configures nothing")
    func noNewItems() async throws {
        let feed = await loadedFeed()
        mock.respond(to: "/posts?since=10", with: .json(Post.list([10, 9, 8])))
        await feed.refresh()
        #expect(feed.ids == Array((1...10).reversed()))
        #expect(feed.changes == [.replaced, .none])
        #expect(feed.configureCount == 1)
        #expect(feed.loadingState.activity == .idle)
    }

    @Test("when the first page holds only new items, the following page finds the overlap")
    func overlapOnSecondPage() async throws {
        let feed = await loadedFeed()
        mock.respond(to: "/posts?since=10", with: .json(Post.list([15, 14, 13])))
        mock.respond(to: "/posts?since=10&before=13", with: .json(Post.list([12, 11, 10, 9])))
        await feed.refresh()
        #expect(feed.ids == [15, 14, 13, 12, 11] + (1...10).reversed())
        #expect(feed.changes.last == .inserted(IndexSet(0..<5)))
        try mock.verifyAllConsumed()
    }

    @Test("a gap that is never closed replaces the content instead of leaving a hole")
    func gapNeverClosed() async throws {
        let feed = await loadedFeed()
        feed.refreshPageLimit = 2
        mock.respond(to: "/posts?since=10", with: .json(Post.list([30, 29])))
        mock.respond(to: "/posts?since=10&before=29", with: .json(Post.list([28, 27])))
        await feed.refresh()
        #expect(feed.ids == [30, 29, 28, 27])
        #expect(feed.changes.last == .replaced)
        #expect(mock.requests.count == 3)
    }

    @Test("a gap is replaced at once when no following page can be asked for")
    func gapWithoutFollowingPages() async throws {
        let feed = await loadedFeed()
        feed.followsPages = false
        mock.respond(to: "/posts?since=10", with: .json(Post.list([30, 29])))
        await feed.refresh()
        #expect(feed.ids == [30, 29])
        #expect(feed.changes.last == .replaced)
    }

    @Test("a page shorter than the page size leaves no gap, for since-style APIs")
    func shortPageHasNoGap() async throws {
        let feed = await loadedFeed()
        feed.refreshPageSize = 5
        mock.respond(to: "/posts?since=10", with: .json(Post.list([12, 11])))
        await feed.refresh()
        #expect(feed.ids == [12, 11] + (1...10).reversed())
        #expect(feed.changes.last == .inserted(IndexSet(0..<2)))
    }

    @Test("duplicates are never introduced, within or across pages")
    func noDuplicates() async throws {
        let feed = await loadedFeed()
        mock.respond(to: "/posts?since=10", with: .json(Post.list([12, 12, 11, 5, 10])))
        await feed.refresh()
        #expect(feed.ids == [12, 11] + (1...10).reversed())
        #expect(Set(feed.ids).count == feed.ids.count)
    }

    @Test("a refresh during a refresh joins it")
    func refreshDuringRefresh() async throws {
        let feed = await loadedFeed()
        let gate = MockTransport.Gate()
        mock.respond(to: "/posts?since=10", with: .json(Post.list([11, 10])), after: gate)
        let first = feed.startRefreshing()
        await gate.waitForArrivals()
        #expect(feed.loadingState.activity == .refreshing)
        #expect(feed.loadingState.placeholder == .content)
        let second = feed.startRefreshing()
        gate.open()
        await second.finish()
        await first.finish()
        #expect(mock.requests.count == 2)
        #expect(feed.changes == [.replaced, .inserted(IndexSet(0..<1))])
    }

    @Test("a refresh supersedes a background reload in flight")
    func refreshDuringReload() async throws {
        let recorder = EventRecorder()
        let feed = await loadedFeed(monitor: recorder)
        let reloadGate = MockTransport.Gate(honorsCancellation: false)
        mock.respond(to: "/posts", with: .json(Post.list([99])), after: reloadGate)
        let reload = feed.startLoading(resource: Post.feed(), policy: .background)
        await reloadGate.waitForArrivals()
        mock.respond(to: "/posts?since=10", with: .json(Post.list([11, 10])))
        await feed.refresh()
        await reload.finish()
        reloadGate.open()
        await recorder.waitForEvents(1) { $0.kind == .discarded }
        #expect(feed.ids == [11] + (1...10).reversed())
        #expect(feed.loadingState.activity == .idle)
    }

    @Test("a failed refresh keeps the content and records the error once")
    func failedRefresh() async throws {
        let feed = await loadedFeed()
        mock.respond(to: "/posts?since=10", with: .text("busy", status: 503))
        await feed.refresh()
        #expect(feed.ids == Array((1...10).reversed()))
        #expect(feed.loadingState.placeholder == .content)
        #expect(feed.failures.count == 1)
        #expect(feed.loadingState.error == feed.failures.first)
        #expect(feed.loadingState.activity == .idle)
    }

    @Test("a refresh with nothing loaded is a first load with the loading placeholder")
    func refreshBeforeFirstLoad() async throws {
        let gate = MockTransport.Gate()
        mock.respond(to: "/posts", with: .json(Post.list([2, 1])), after: gate)
        let feed = FeedScreen(transport: mock)
        let task = feed.startRefreshing()
        await gate.waitForArrivals()
        #expect(feed.loadingState.placeholder == .loading)
        let joined = feed.startRefreshing()
        gate.open()
        await joined.finish()
        await task.finish()
        #expect(feed.ids == [2, 1])
        #expect(feed.changes == [.replaced])
        #expect(mock.requests.count == 1)
    }

    @Test("a conformer may ask for replacement instead of merging")
    func replacesWhenAsked() async throws {
        let feed = await loadedFeed()
        feed.refreshReplacesContent = true
        mock.respond(to: "/posts?since=10", with: .json(Post.list([11, 10])))
        await feed.refresh()
        #expect(feed.ids == [11, 10])
        #expect(feed.changes.last == .replaced)
    }

    @Test("content that is not a list of identifiable items is replaced")
    func nonIdentifiableContent() async throws {
        mock.respond(to: "/episodes/1", with: .json(Episode(id: 1, title: "A")))
        mock.respond(to: "/episodes/1", with: .json(Episode(id: 1, title: "B")))
        let screen = ScoreScreen(transport: mock)
        await screen.refresh()
        await screen.refresh()
        #expect(screen.loadingState.content?.title == "B")
        #expect(screen.changes == [.replaced, .replaced])
    }

    @Test("the completion form reports the state after the refresh")
    func completionForm() async throws {
        let feed = await loadedFeed()
        mock.respond(to: "/posts?since=10", with: .json(Post.list([11, 10])))
        let state = await callback { reply in feed.startRefreshing { reply($0) } }
        #expect(state?.content?.first?.id == 11)
    }
}
