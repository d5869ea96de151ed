import Foundation
import LoadingKit
import LoadingKitNetworking
import LoadingKitTesting
import Testing

/// What a list's responses say of the whole list — its total count, its first and
/// last pages — follows every answer: pages, a refresh merged at the head, a reload.
/// Over real `URLSession` against a loopback server of posts, newest first.
@MainActor
@Suite("A list's metadata follows every answer", .timeLimit(.minutes(1)))
struct ListMetadataTests {
    let server: LoopbackServer
    /// The posts the server holds, newest first.
    let posts = Locked(Array((1...100).reversed()))

    init() throws {
        server = try LoopbackServer()
        server.route("/posts") { [posts] request in
            let all = posts.withLock { $0 }
            let total = "\(all.count)"
            if let since = request.query("since").flatMap(Int.init) {
                return .json(Post.list(all.filter { $0 >= since })).header("X-Total-Count", total)
            }
            let page = request.query("page").flatMap(Int.init) ?? 1
            let size = request.query("size").flatMap(Int.init) ?? 10
            let slice = all.dropFirst((page - 1) * size).prefix(size)
            return .json(Post.list(slice)).header("X-Total-Count", total)
        }
    }

    /// Publishes `count` posts at the head.
    private func publish(_ count: Int) {
        posts.withLock { posts in
            let newest = posts.first ?? 0
            posts.insert(contentsOf: ((newest + 1)...(newest + count)).reversed(), at: 0)
        }
    }

    /// A feed showing its first three pages: posts 100 to 71 of 100.
    private func feed() async -> MetadataFeed {
        let feed = MetadataFeed(
            webservice: Webservice(transport: URLSessionTransport()),
            server: server
        )
        await feed.loadFirstPage()
        await feed.loadNextPage()
        await feed.loadNextPage()
        #expect(feed.pagination.totalCount == 100)
        return feed
    }

    @Test("a refresh that merges new posts at the head updates the total count")
    func refreshUpdatesTotal() async throws {
        let feed = await feed()
        publish(4)

        await feed.refresh()

        #expect(feed.ids.prefix(5) == [104, 103, 102, 101, 100])
        #expect(feed.ids.count == 34)
        #expect(feed.pagination.totalCount == 104)
    }

    @Test("a reload of the pages held updates the total count")
    func reloadUpdatesTotal() async throws {
        let feed = await feed()
        publish(4)

        await feed.reload()

        #expect(feed.ids.first == 104)
        #expect(feed.pagination.totalCount == 104)
    }
}

/// A numbered, refreshable feed of the server's posts, ten a page.
@MainActor
private final class MetadataFeed: Paginating, Refreshable {
    let loading = LoadingCore<[Post]>()
    let webservice: Webservice
    let server: LoopbackServer

    init(webservice: Webservice, server: LoopbackServer) {
        self.webservice = webservice
        self.server = server
    }

    func configure(value: [Post]) {}

    func resource(forPage page: Int?) -> Resource<Page<Post, Int>> {
        .pageNumber(url: server.url("/posts"), page: page, size: 10)
    }

    func refreshResource(newerThan first: Post?) -> Resource<[Post]> {
        Resource(url: server.url("/posts?since=\(first?.id ?? 0)"))
    }

    var ids: [Int] { loadingState.content?.map(\.id) ?? [] }
}
