import Foundation
import LoadingKit
import LoadingKitNetworking
import LoadingKitTesting
import Testing

/// A window over numbered pages loses no item when the list moves under it: items
/// published at the head shift every page, and the pages between are fetched again
/// until the items shown are contiguous. Over real `URLSession` against a loopback
/// server of posts, ten a page, with `X-Total-Count`.
@MainActor
@Suite("A window closes the gaps a moving list leaves", .timeLimit(.minutes(1)))
struct WindowGapTests {
    let server: LoopbackServer
    /// The list the server holds, head first.
    let list = Locked(Array(1...100))

    init() throws {
        server = try LoopbackServer()
        server.route("/posts") { [list] request in
            let all = list.withLock { $0 }
            let page = request.query("page").flatMap(Int.init) ?? 1
            let size = request.query("per_page").flatMap(Int.init) ?? 10
            return .json(Post.list(all.dropFirst((page - 1) * size).prefix(size)))
                .header("X-Total-Count", "\(all.count)")
        }
    }

    /// A window of two pages scrolled to pages 2 and 3: posts 11 to 30.
    private func scrolledWindow() async -> WindowedPosts {
        let window = WindowedPosts(server: server)
        await window.loadFirstPage()
        await window.loadNextPage()
        await window.loadNextPage()
        #expect(window.ids == Array(11...30))
        return window
    }

    @Test("posts published at the head: scrolling back shows every post, none skipped")
    func publishedAtTheHead() async throws {
        let window = await scrolledWindow()
        list.withLock { $0.insert(contentsOf: [104, 103, 102, 101], at: 0) }

        await window.loadPreviousPage()

        #expect(window.ids == [104, 103, 102, 101] + Array(1...20))
        #expect(window.pagination.totalCount == 104)
        #expect(server.requestCount(for: "/posts") == 5)  // page 1, then page 2 again
    }

    @Test("posts removed at the head: the next page shows every post, none skipped")
    func removedAtTheHead() async throws {
        let window = await scrolledWindow()
        list.withLock { $0.removeFirst(4) }

        await window.loadNextPage()

        #expect(window.ids == Array(21...44))  // page 4 now starts at 35: 31 to 34 fetched with it
        #expect(window.pagination.totalCount == 96)
    }

    @Test(
        "posts published at the head, then a page down and back up: the gap at the head end is closed too"
    )
    func publishedThenScrolledBothWays() async throws {
        let window = await scrolledWindow()
        list.withLock { $0.insert(contentsOf: [104, 103, 102, 101], at: 0) }
        await window.loadNextPage()  // page 4 repeats posts 27 to 30: only 31 to 36 go in
        #expect(window.ids == Array(21...36))

        await window.loadPreviousPage()

        // Posts 27 to 30 are page 4's now: they left with it, and come back with it.
        #expect(window.ids == Array(7...26))
        await window.loadNextPage()
        #expect(window.ids == Array(21...36))
    }

    @Test(
        "posts published at the head, then two pages down and one back: the posts a page repeated stay"
    )
    func repeatedPostsStayWithTheirPage() async throws {
        let window = await scrolledWindow()
        list.withLock { $0.insert(contentsOf: [104, 103, 102, 101], at: 0) }
        await window.loadNextPage()  // page 4 repeats posts 27 to 30, shown with page 3
        await window.loadNextPage()  // page 5 drops page 3 from the window
        #expect(window.ids == Array(27...46))

        await window.loadPreviousPage()

        #expect(window.ids == Array(17...36))
        #expect(server.requestCount(for: "/posts") == 6)
    }

    @Test("a post removed on screen among those a page repeats does not keep the others behind")
    func repeatedPostsAroundARemovedOne() async throws {
        let window = await scrolledWindow()
        list.withLock { $0.insert(contentsOf: [104, 103, 102, 101], at: 0) }
        #expect(window.edit(.removing(id: 28)))
        await window.loadNextPage()  // page 4 repeats 27 to 30; 28 is gone from the screen
        await window.loadNextPage()  // page 5 drops page 3 from the window

        #expect(window.ids == [27] + Array(29...46))
    }

    @Test("a list that did not move costs no extra request")
    func unmovedList() async throws {
        let window = await scrolledWindow()

        await window.loadPreviousPage()

        #expect(window.ids == Array(1...20))
        #expect(server.requestCount(for: "/posts") == 4)
    }
}

/// A window of two numbered pages of the server's posts.
@MainActor
private final class WindowedPosts: Paginating {
    let loading = LoadingCore<[Post]>()
    let webservice = Webservice(transport: URLSessionTransport())
    let server: LoopbackServer
    let maxPages: Int? = 2

    init(server: LoopbackServer) {
        self.server = server
    }

    func configure(value: [Post]) {}

    func resource(forPage page: Int?) -> Resource<Page<Post, Int>> {
        .pageNumber(url: server.url("/posts"), page: page, size: 10)
    }

    var ids: [Int] { loadingState.content?.map(\.id) ?? [] }
}
