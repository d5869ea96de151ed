import Foundation
import LoadingKit
import LoadingKitTesting

/// The embedded feed: a few hundred stories, newest first, 30 to a `Link`-chained
/// page that links to the first, previous and next pages and tells the total, each
/// page with an `ETag`; newer stories appear when `publish(_:)` is
/// called, and the third page fails once with a 503.
final class DemoFeedServer: Sendable {
    private struct Feed {
        var newest = 240
        var failuresLeft = 1
        var notModified = 0
    }

    /// The feed's state, shared with the route.
    private final class Store: Sendable {
        let feed = Locked(Feed())
    }

    let server: LoopbackServer
    /// How long every answer waits, so that a person sees each step.
    let delay: Duration
    private let store = Store()
    static let pageSize = 30

    private struct Story: Encodable {
        let id: Int
        let title: String
    }

    /// Starts the server; responses wait `delay`, so that a person sees the spinner.
    init(delay: Duration) throws {
        self.delay = delay
        server = try LoopbackServer()
        server.route("/feed") { [store] request in
            Self.answer(request, store: store).delayed(by: delay)
        }
    }

    var firstPage: URL { server.url("/feed?page=1") }
    var emptyFilter: URL { server.url("/feed?q=nothing-matches") }
    /// Requests for the feed itself, the filtered ones left out.
    var feedRequestCount: Int { server.requests.count { $0.query("q") == nil } }
    var notModifiedCount: Int { store.feed.withLock { $0.notModified } }

    /// Adds `count` newer stories at the head of the feed.
    func publish(_ count: Int) {
        store.feed.withLock { $0.newest += count }
    }

    /// Takes the third page's scripted failure away: a server that is back answers
    /// every page.
    func recover() {
        store.feed.withLock { $0.failuresLeft = 0 }
    }

    private static func answer(_ request: LoopbackServer.Request, store: Store)
        -> MockResponse
    {
        if request.query("q") != nil {
            return .json([Story]())
        }
        let page = max(1, Int(request.query("page") ?? "1") ?? 1)
        return store.feed.withLock { feed in
            if page == 3 && feed.failuresLeft > 0 {
                feed.failuresLeft -= 1
                return MockResponse.text("temporarily unavailable", status: 503)
            }
            let top = feed.newest - (page - 1) * pageSize
            let ids = stride(from: top, to: max(0, top - pageSize), by: -1)
            let tag = "\"p\(page)-\(feed.newest)\""
            if request.header("if-none-match") == tag {
                feed.notModified += 1
                return .status(304, headers: ["ETag": tag])
            }
            var headers: HeaderFields = ["ETag": tag, "X-Total-Count": String(feed.newest)]
            var links = ["</feed?page=1>; rel=\"first\""]
            if top - pageSize > 0 {
                links.append("</feed?page=\(page + 1)>; rel=\"next\"")
            }
            if page > 1 {
                links.append("</feed?page=\(page - 1)>; rel=\"prev\"")
            }
            headers.append("Link", links.joined(separator: ", "))
            return .json(ids.map { Story(id: $0, title: "Story \($0)") }, headers: headers)
        }
    }
}
