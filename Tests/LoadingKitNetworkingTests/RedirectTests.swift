import Foundation
import LoadingKitNetworking
import LoadingKitTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Credentials never follow a redirect to another origin: two loopback servers on two
/// ports are two origins, and the second one records what it received.
@Suite("Redirects", .timeLimit(.minutes(1)))
struct RedirectTests {
    let home: LoopbackServer
    let elsewhere: LoopbackServer

    init() throws {
        home = try LoopbackServer()
        elsewhere = try LoopbackServer()
        elsewhere.route("/landing") { _ in .json(Episode(id: 2, title: "elsewhere")) }
        home.route("/landing") { _ in .json(Episode(id: 1, title: "home")) }
    }

    /// `/start` on `home` redirects with `status` to `target`.
    func redirect(_ status: Int, to target: URL) {
        home.route("/start") { _ in .status(status, headers: [("Location", target.absoluteString)])
        }
    }

    func transport(_ configuration: URLSessionTransport.Configuration = .init(timeout: 10))
        -> Webservice
    {
        Webservice(transport: URLSessionTransport(configuration: configuration))
    }

    var credentialed: Resource<Episode> {
        Resource<Episode>(url: home.url("/start"))
            .header("Authorization", "Bearer s3cret")
            .header("Cookie", "session=s3cret")
            .header("Proxy-Authorization", "Basic s3cret")
            .header("X-API-Key", "s3cret")
    }

    @Test(
        "a redirect to another origin drops the credential headers",
        arguments: [301, 302, 303, 307, 308]
    )
    func crossOriginDropsCredentials(status: Int) async throws {
        redirect(status, to: elsewhere.url("/landing"))
        var redirects = RedirectPolicy()
        redirects.credentialHeaders.insert("x-api-key")
        let webservice = transport(.init(timeout: 10, redirects: redirects))

        let episode = try await webservice.load(credentialed)

        #expect(episode.title == "elsewhere")
        let received = try #require(elsewhere.requests.first)
        for name in ["Authorization", "Cookie", "Proxy-Authorization", "X-API-Key"] {
            #expect(received.header(name) == nil, "\(name) reached the other origin")
        }
        #expect(received.header("Accept") == "application/json")
        #expect(home.requests.first?.header("Authorization") == "Bearer s3cret")
    }

    @Test("headers of the transport's configuration are dropped too")
    func configurationHeadersDropped() async throws {
        redirect(302, to: elsewhere.url("/landing"))
        let webservice = transport(
            .init(timeout: 10, additionalHeaders: ["Authorization": "Bearer configured"])
        )
        _ = try await webservice.load(Resource<Episode>(url: home.url("/start")))
        #expect(home.requests.first?.header("Authorization") == "Bearer configured")
        #expect(elsewhere.requests.first?.header("Authorization") == nil)
    }

    @Test("a redirect within the origin keeps the credentials")
    func sameOriginKeepsCredentials() async throws {
        redirect(307, to: home.url("/landing"))
        let episode = try await transport().load(credentialed)
        #expect(episode.title == "home")
        #expect(home.requests.last?.header("Authorization") == "Bearer s3cret")
        #expect(home.requests.last?.header("Cookie") == "session=s3cret")
    }

    @Test("credentials dropped once stay dropped when a later redirect comes back")
    func droppedCredentialsStayDropped() async throws {
        redirect(302, to: elsewhere.url("/bounce"))
        let back = home.url("/landing")
        elsewhere.route("/bounce") { _ in .status(302, headers: [("Location", back.absoluteString)])
        }
        let episode = try await transport().load(credentialed)
        #expect(episode.title == "home")
        #expect(elsewhere.requests.first?.header("Authorization") == nil)
        #expect(home.requests.last?.path == "/landing")
        #expect(home.requests.last?.header("Authorization") == nil)
    }

    @Test("a trusted origin receives the credentials")
    func trustedOrigin() async throws {
        redirect(302, to: elsewhere.url("/landing"))
        let webservice = transport(
            .init(timeout: 10, redirects: RedirectPolicy(trustedOrigins: [elsewhere.baseURL]))
        )
        _ = try await webservice.load(credentialed)
        #expect(elsewhere.requests.first?.header("Authorization") == "Bearer s3cret")
    }

    @Test(
        "refusing cross-origin redirects ends the load with the 3xx, never asking the other origin"
    )
    func refusedCrossOrigin() async throws {
        redirect(302, to: elsewhere.url("/landing"))
        let webservice = transport(
            .init(timeout: 10, redirects: RedirectPolicy(refusesCrossOrigin: true))
        )
        let error = await #expect(throws: WebserviceError.self) {
            try await webservice.load(credentialed)
        }
        guard case .badStatus(let failure)? = error else {
            Issue.record("expected the 302 as a bad status, got \(String(describing: error))")
            return
        }
        #expect(failure.statusCode == 302)
        #expect(failure.header("Location") == elsewhere.url("/landing").absoluteString)
        #expect(elsewhere.requests.isEmpty)
    }

    @Test("the policy: downgrades refused, other origins stripped, the same origin untouched")
    func policyDecisions() throws {
        let policy = RedirectPolicy()
        let origin = URL(string: "https://api.example.com/a")!
        func request(_ url: String) -> URLRequest {
            var request = URLRequest(url: URL(string: url)!)
            request.setValue("Bearer s3cret", forHTTPHeaderField: "authorization")
            request.setValue("en", forHTTPHeaderField: "Accept-Language")
            return request
        }
        #expect(policy.request(following: request("http://api.example.com/b"), from: origin) == nil)
        var downgrading = policy
        downgrading.allowsDowngrade = true
        #expect(
            downgrading.request(following: request("http://api.example.com/b"), from: origin) != nil
        )
        let same = try #require(
            policy.request(following: request("https://API.example.com:443/b"), from: origin)
        )
        #expect(same.value(forHTTPHeaderField: "Authorization") == "Bearer s3cret")
        let other = try #require(
            policy.request(following: request("https://api.example.com:8443/b"), from: origin)
        )
        #expect(other.value(forHTTPHeaderField: "Authorization") == nil)
        #expect(other.value(forHTTPHeaderField: "Accept-Language") == "en")
        var withBody = request("https://elsewhere.example.com/b")
        withBody.httpBody = Data("password=s3cret".utf8)
        #expect(policy.request(following: withBody, from: origin) == nil)
        var trusting = policy
        trusting.trustedOrigins = [URL(string: "https://elsewhere.example.com")!]
        #expect(trusting.request(following: withBody, from: origin) != nil)
    }
}
