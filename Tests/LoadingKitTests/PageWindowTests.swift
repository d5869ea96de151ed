import Foundation
import LoadingKitTesting
import Testing

@testable import LoadingKit

/// Previous pages and a bounded window of pages.
@MainActor
@Suite("Previous pages and the page window", .timeLimit(.minutes(1)))
struct PageWindowTests {
    let mock = MockTransport()

    /// Page `number` of size 3 holds posts `30 - 3 * number + 3` down to `+1`.
    func script(pages numbers: Int...) {
        for number in numbers {
            mock.respond(
                to: "/posts?page=\(number)&per_page=3",
                with: .json(Post.list(Self.ids(ofPage: number)))
            )
        }
    }

    static func ids(ofPage number: Int) -> [Int] {
        (1...3).map { 30 - 3 * number + 4 - $0 }
    }

    func windowedFeed(pages: Int) async -> PagedFeed {
        let feed = PagedFeed(transport: mock)
        feed.maxPages = 2
        script(pages: 1, 2, 3)
        await feed.loadFirstPage()
        for _ in 1..<pages {
            await feed.loadNextPage()
        }
        return feed
    }

    @Test("a page beyond the window drops the head page, reported after the append")
    func appendDropsHead() async throws {
        let feed = await windowedFeed(pages: 3)
        #expect(feed.ids == Self.ids(ofPage: 2) + Self.ids(ofPage: 3))
        #expect(feed.changes.suffix(2) == [.appended(6..<9), .removed(0..<3)])
        #expect(feed.pagination.pagesLoaded == 2)
        #expect(feed.pagination.hasPreviousPages)
        #expect(feed.pagination.previousCursor == 1)
    }

    @Test("a previous page is inserted at the head and drops the tail page beyond the window")
    func previousPageDropsTail() async throws {
        let feed = await windowedFeed(pages: 3)
        script(pages: 1)
        await feed.loadPreviousPage()
        #expect(feed.ids == Self.ids(ofPage: 1) + Self.ids(ofPage: 2))
        #expect(feed.changes.suffix(2) == [.inserted(IndexSet(0..<3)), .removed(6..<9)])
        #expect(!feed.pagination.hasPreviousPages)
        #expect(feed.pagination.nextCursor == 3)
        script(pages: 3)
        await feed.loadNextPage()
        #expect(feed.ids == Self.ids(ofPage: 2) + Self.ids(ofPage: 3))
    }

    @Test("a reload of a window that dropped its head starts from the head page")
    func reloadFromTheHeadPage() async throws {
        let feed = await windowedFeed(pages: 3)
        script(pages: 2, 3)
        await feed.reload()
        #expect(feed.ids == Self.ids(ofPage: 2) + Self.ids(ofPage: 3))
        #expect(
            mock.requests.suffix(2).compactMap { $0.url?.query } == [
                "page=2&per_page=3", "page=3&per_page=3",
            ]
        )
        #expect(feed.pagination.previousCursor == 1)
    }

    @Test("a failed previous page keeps the items, records why, and is asked for again")
    func previousPageFailure() async throws {
        let feed = await windowedFeed(pages: 3)
        mock.respond(to: "/posts?page=1&per_page=3", with: .text("down", status: 503))
        await feed.loadPreviousPage()
        #expect(feed.ids == Self.ids(ofPage: 2) + Self.ids(ofPage: 3))
        #expect(feed.pagination.previousPageError != nil)
        #expect(feed.loadPreviousPageIfNeeded(currentIndex: 0) == nil)
        script(pages: 1)
        await feed.loadPreviousPage()
        #expect(feed.ids.prefix(3) == Self.ids(ofPage: 1)[...])
        #expect(feed.pagination.previousPageError == nil)
    }

    @Test("one page in flight: a page the other way waits for it, then loads from what it applied")
    func onePageInFlight() async throws {
        let feed = await windowedFeed(pages: 3)
        let gate = MockTransport.Gate()
        mock.respond(
            to: "/posts?page=4&per_page=3",
            with: .json(Post.list(Self.ids(ofPage: 4))),
            after: gate
        )
        let next = feed.startLoadingNextPage()
        await gate.waitForArrivals()
        script(pages: 2)
        let previous = feed.startLoadingPreviousPage()
        #expect(feed.pagination.isPreviousPageDeferred)
        #expect(mock.requests.count == 4)
        gate.open()
        await next.finish()
        await previous.finish()
        #expect(
            mock.requests.map(\.url?.query) == [
                "page=1&per_page=3", "page=2&per_page=3", "page=3&per_page=3",
                "page=4&per_page=3", "page=2&per_page=3",
            ]
        )
        #expect(feed.ids == Self.ids(ofPage: 2) + Self.ids(ofPage: 3))
        #expect(!feed.pagination.isPreviousPageDeferred)
        let back = MockTransport.Gate()
        script(pages: 3)
        mock.respond(
            to: "/posts?page=1&per_page=3",
            with: .json(Post.list(Self.ids(ofPage: 1))),
            after: back
        )
        let earlier = feed.startLoadingPreviousPage()
        await back.waitForArrivals()
        let later = feed.startLoadingNextPage()
        #expect(feed.pagination.isNextPageDeferred)
        back.open()
        await earlier.finish()
        await later.finish()
        #expect(mock.requests.last?.url?.query == "page=3&per_page=3")
        #expect(feed.ids == Self.ids(ofPage: 2) + Self.ids(ofPage: 3))
        #expect(feed.pagination.pagesLoaded == 2)
        #expect(!feed.pagination.isNextPageDeferred)
    }

    @Test("previous pages follow the API's prev links; first, last and total are kept")
    func previousLinks() async throws {
        let base = "https://api.example.com/issues"
        func respond(_ page: Int, prev: Int?) {
            var links = [
                "<\(base)?page=\(page + 1)>; rel=\"next\"", "<\(base)?page=1>; rel=\"first\"",
                "<\(base)?page=9>; rel=\"last\"",
            ]
            if let prev { links.append("<\(base)?page=\(prev)>; rel=\"prev\"") }
            mock.respond(
                to: "/issues?page=\(page)",
                with: .json(
                    Post.list([page]),
                    headers: ["Link": links.joined(separator: ", "), "X-Total-Count": "9"]
                )
            )
        }
        respond(3, prev: 2)
        respond(2, prev: 1)
        respond(1, prev: nil)
        let list = PagedScreen<Post, URL>(transport: mock) { cursor in
            .linked(url: cursor ?? URL(string: "\(base)?page=3")!)
        }
        await list.loadFirstPage()
        #expect(list.pagination.previousCursor?.query == "page=2")
        #expect(list.pagination.firstCursor?.query == "page=1")
        #expect(list.pagination.lastCursor?.query == "page=9")
        #expect(list.pagination.totalCount == 9)
        await list.loadPreviousPage()
        await list.loadPreviousPage()
        #expect(list.items.map(\.id) == [1, 2, 3])
        #expect(!list.pagination.hasPreviousPages)
        #expect(list.changes.suffix(2) == [.inserted(IndexSet(0..<1)), .inserted(IndexSet(0..<1))])
    }

    @Test("an endless list in a window of two pages holds at most two pages")
    func flatMemory() async throws {
        let feed = PagedFeed(transport: mock)
        feed.maxPages = 2
        for number in 1...40 {
            mock.respond(
                to: "/posts?page=\(number)&per_page=3",
                with: .json(Post.list((1...3).map { 1000 - 3 * number + $0 }))
            )
        }
        await feed.loadFirstPage()
        for _ in 1..<40 {
            await feed.loadNextPage()
            #expect(feed.ids.count <= 6)
        }
        #expect(feed.pagination.pagesLoaded == 2)
        #expect(feed.pagination.nextCursor == 41)
    }

    @Test("a body's count and previous cursor reach the pagination state")
    func envelopeMetadata() async throws {
        struct Envelope: Codable {
            let items: [Post]
            let next: String?
            let previous: String?
            let total: Int
        }
        let body = Envelope(items: Post.list([5, 4]), next: "b", previous: "a", total: 12)
        mock.respond(to: "/feed", with: .json(body))
        let list = PagedScreen<Post, String>(transport: mock) { cursor in
            .cursor(
                url: URL(string: "https://api.example.com/feed")!,
                cursor: cursor,
                envelope: Envelope.self,
                items: \.items,
                next: { PageCursor($0.next) },
                previous: { PageCursor($0.previous) },
                totalCount: \.total
            )
        }
        await list.loadFirstPage()
        #expect(list.pagination.totalCount == 12)
        #expect(list.pagination.previousCursor == "a")
        #expect(list.pagination.nextCursor == "b")
    }
}
