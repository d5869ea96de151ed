import Foundation
import LoadingKit
import LoadingKitTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What must never leak: headers to another origin, secrets into descriptions,
/// unbounded bodies into memory.
@MainActor
@Suite("Security", .timeLimit(.minutes(1)))
struct SecurityTests {
    static let transport = URLSessionTransport(
        configuration: .init(maximumResponseSize: 4096, timeout: 10)
    )

    /// A list on `home` whose second page is on `elsewhere`, another origin.
    func crossOriginPages(allowed: Bool) async throws -> (
        home: LoopbackServer, elsewhere: LoopbackServer
    ) {
        let home = try LoopbackServer()
        let elsewhere = try LoopbackServer()
        let next = elsewhere.url("/issues?page=2")
        home.route("/issues") { _ in
            .json(
                [GitHubIssue(id: 1, number: 1, title: "a")],
                headers: [("Link", "<\(next)>; rel=\"next\"")]
            )
        }
        elsewhere.route("/issues") { _ in .json([GitHubIssue(id: 2, number: 2, title: "b")]) }
        let first = home.url("/issues?page=1")
        let screen = PagedScreen<GitHubIssue, URL>(transport: Self.transport) { next in
            Resource.linked(url: next ?? first, allowsCrossOrigin: allowed).header(
                "Authorization",
                "Bearer s3cret"
            )
        }
        await screen.loadAllPages()
        #expect(screen.items.count == (allowed ? 2 : 1))
        return (home, elsewhere)
    }

    @Test("a cross-origin next page is not followed, so Authorization never leaves its origin")
    func crossOriginNotFollowed() async throws {
        let (home, elsewhere) = try await crossOriginPages(allowed: false)
        #expect(home.requests.first?.header("authorization") == "Bearer s3cret")
        #expect(elsewhere.requests.isEmpty)
    }

    @Test("a first page redirected to another origin does not lead the pages there")
    func redirectedFirstPage() async throws {
        let home = try LoopbackServer()
        let elsewhere = try LoopbackServer()
        let landing = elsewhere.url("/issues?page=1")
        let next = elsewhere.url("/issues?page=2")
        home.route("/issues") { _ in .status(302, headers: [("Location", landing.absoluteString)]) }
        elsewhere.route("/issues") { _ in
            .json(
                [GitHubIssue(id: 1, number: 1, title: "a")],
                headers: [("Link", "<\(next)>; rel=\"next\"")]
            )
        }
        let first = home.url("/issues")
        let screen = PagedScreen<GitHubIssue, URL>(transport: Self.transport) { next in
            Resource.linked(url: next ?? first).header("Authorization", "Bearer s3cret")
        }
        await screen.loadAllPages()
        #expect(screen.items.map(\.id) == [1])
        #expect(screen.pagination.hasMorePages == false)
        #expect(elsewhere.requests.count == 1)
        #expect(elsewhere.requests.first?.header("Authorization") == nil)
    }

    @Test("following another origin is the conformer's explicit choice")
    func crossOriginAllowed() async throws {
        let (_, elsewhere) = try await crossOriginPages(allowed: true)
        #expect(elsewhere.requests.count == 1)
    }

    @Test("error descriptions carry neither header values nor query strings")
    func descriptionsKeepSecrets() async throws {
        let server = try LoopbackServer()
        server.route("/account") { _ in
            .text(
                "denied",
                status: 403,
                headers: [("Set-Cookie", "session=s3cret"), ("X-Token", "s3cret")]
            )
        }
        let resource = Resource<Episode>(url: server.url("/account?api_key=s3cret"))
            .header("Authorization", "Bearer s3cret")
        let webservice = Webservice(transport: Self.transport)
        let error = await #expect(throws: WebserviceError.self) {
            try await webservice.load(resource)
        }
        let description = try #require(error?.description)
        #expect(description.contains("403"))
        #expect(!description.contains("s3cret"))
        let transportFailure = WebserviceError.transport(
            .init(
                underlying: URLError(.timedOut),
                url: URL(string: "https://user:pa55@x.test/a?token=s3cret")
            )
        )
        #expect(!transportFailure.description.contains("s3cret"))
        #expect(!transportFailure.description.contains("pa55"))
    }

    @Test("bodies are capped: a large error page is neither buffered nor repeated in full")
    func bodiesCapped() async throws {
        let server = try LoopbackServer()
        let page = String(repeating: "<p>maintenance</p>", count: 1000)
        server.route("/huge") { _ in .text(page, status: 503) }
        server.route("/long") { _ in .text(String(page.prefix(2000)), status: 503) }
        let webservice = Webservice(transport: Self.transport)
        let tooLarge = await #expect(throws: WebserviceError.self) {
            try await webservice.load(Resource<Episode>(url: server.url("/huge")))
        }
        #expect(
            tooLarge
                == .responseTooLarge(.init(limit: 4096, url: server.url("/huge"), method: .get))
        )
        #expect(
            tooLarge?.description
                == "Response larger than the limit of 4096 bytes for GET \(server.url("/huge"))"
        )
        let error = await #expect(throws: WebserviceError.self) {
            try await webservice.load(Resource<Episode>(url: server.url("/long")))
        }
        #expect((error?.description.count ?? .max) < 300)
    }
}
