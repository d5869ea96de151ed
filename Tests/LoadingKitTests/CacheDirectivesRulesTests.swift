import Foundation
import LoadingKit
import LoadingKitTesting
import Testing

/// 10. What `Cache-Control`, `Age` and `Expires` mean for a loader's "if needed",
/// over real HTTP, with the loader's time on a manual clock.
@MainActor
@Suite("HTTP cache directives in loaders", .timeLimit(.minutes(1)))
struct CacheDirectivesRulesTests {
    static let transport = URLSessionTransport(configuration: .init(timeout: 10))
    let clock = ManualClock()
    /// What the screens' webservices did, printed when a count of requests is off.
    let recorder = EventRecorder()

    /// A server whose `/posts` answers with `ETag: "v1"` and `headers`, or `304` to
    /// that tag.
    func server(headers: [(String, String)]) throws -> LoopbackServer {
        let server = try LoopbackServer()
        server.route("/posts") { request in
            var response = MockResponse.json(Post.list(1...3))
            for (name, value) in headers {
                response = response.header(name, value)
            }
            return .revalidating(request, entityTag: #""v1""#, response)
        }
        return server
    }

    func screen() -> PostsScreen {
        PostsScreen(
            webservice: Webservice(
                transport: Self.transport,
                configuration: .init(monitor: recorder)
            ),
            clock: clock
        )
    }

    /// The server of ``server(headers:)``, a screen on the manual clock, and the
    /// server's posts.
    func setUp(
        headers: [(String, String)]
    ) throws -> (LoopbackServer, PostsScreen, Resource<[Post]>) {
        let server = try server(headers: headers)
        return (server, screen(), Resource<[Post]>(url: server.url("/posts")))
    }

    @Test("no-store: nothing is kept, no validators are sent later, and if-needed reloads")
    func noStore() async throws {
        let (server, screen, posts) = try setUp(headers: [("Cache-Control", "no-store")])
        await screen.load(resource: posts)
        await screen.load(resource: posts)
        #expect(server.requests.count == 2)
        #expect(server.requests.allSatisfy { $0.header("If-None-Match") == nil })
        #expect(screen.configured == [[1, 2, 3], [1, 2, 3]])
    }

    @Test("no-cache: stored, but revalidated before every reuse")
    func noCache() async throws {
        let (server, screen, posts) = try setUp(headers: [("Cache-Control", "no-cache")])
        await screen.load(resource: posts)
        await screen.load(resource: posts)
        await screen.load(resource: posts)
        #expect(server.requests.count == 3)
        #expect(server.requests.dropFirst().allSatisfy { $0.header("If-None-Match") == #""v1""# })
        #expect(screen.configured == [[1, 2, 3]])
        #expect(screen.loadingState.loadedAt == clock.now)
    }

    @Test(
        "max-age less Age, or else Expires less Date, is how long content stays fresh",
        arguments: [
            ([("Cache-Control", "public, max-age=60"), ("Age", "20")], Int64(40)),
            (
                [
                    ("Date", "Sun, 06 Nov 1994 08:49:37 GMT"),
                    ("Expires", "Sun, 06 Nov 1994 08:49:47 GMT"),
                ],
                Int64(10)
            ),
        ]
    )
    func freshnessLifetime(headers: [(String, String)], seconds: Int64) async throws {
        let (server, screen, posts) = try setUp(headers: headers)
        await screen.load(resource: posts)
        clock.advance(by: .seconds(seconds - 1))
        await screen.load(resource: posts)
        #expect(server.requests.count == 1)
        clock.advance(by: .seconds(2))
        await screen.load(resource: posts)
        #expect(server.requests.count == 2)
        #expect(server.requests.last?.header("If-None-Match") == #""v1""#)
    }

    @Test("a 304 updates the stored directives field by field: its Expires keeps no-cache")
    func notModifiedUpdatesFields() async throws {
        let server = try LoopbackServer()
        let tag = #""v1""#
        server.route("/posts") { request in
            guard request.header("If-None-Match") == tag else {
                return .json(
                    Post.list(1...3),
                    headers: [("ETag", tag), ("Cache-Control", "no-cache, max-age=60")]
                )
            }
            return .status(
                304,
                headers: [("ETag", tag), ("Expires", "Sun, 06 Nov 2094 08:49:37 GMT")]
            )
        }
        let screen = screen()
        let posts = Resource<[Post]>(url: server.url("/posts"))
        await screen.load(resource: posts)
        await screen.load(resource: posts)
        await screen.load(resource: posts)
        #expect(server.requests.count == 3)
        #expect(screen.configured == [[1, 2, 3]])
    }

    @Test("the loader's maxAge wins over the response's max-age")
    func loaderMaxAgeWins() async throws {
        let (server, screen, posts) = try setUp(headers: [("Cache-Control", "max-age=600")])
        screen.maxAge = .seconds(5)
        await screen.load(resource: posts)
        clock.advance(by: .seconds(6))
        await screen.load(resource: posts)
        #expect(server.requests.count == 2, "\(recorder.lines.joined(separator: "\n"))")
    }

    @Test("without directives, content stays current until reloaded")
    func noDirectives() async throws {
        let (server, screen, posts) = try setUp(headers: [])
        await screen.load(resource: posts)
        clock.advance(by: .seconds(86_400))
        await screen.load(resource: posts)
        #expect(server.requests.count == 1)
    }
}
