import Foundation
import LoadingKitNetworking
import Testing

@testable import LoadingKitTesting

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("LoopbackServer", .timeLimit(.minutes(1)))
struct LoopbackServerTests {
    static let transport = URLSessionTransport(configuration: .init(timeout: 10))
    let server: LoopbackServer
    let webservice = Webservice(transport: Self.transport)

    init() throws {
        server = try LoopbackServer()
    }

    #if os(Linux)
        static let isLinux = true
    #else
        static let isLinux = false
    #endif

    func text(_ path: String, method: HTTPMethod = .get, body: Data? = nil) -> Resource<String> {
        var request = URLRequest(url: server.url(path))
        request.httpMethod = method.rawValue
        request.httpBody = body
        return Resource(request: request) { data, _ in String(decoding: data, as: UTF8.self) }
    }

    @Test("it listens on an ephemeral loopback port")
    func address() {
        #expect(server.port > 0)
        #expect(server.baseURL.host == "127.0.0.1")
        #expect(server.url("/a?b=1").absoluteString == "http://127.0.0.1:\(server.port)/a?b=1")
    }

    @Test("a server that went away refuses connections, and comes back on its port with its routes")
    func awayAndBack() async throws {
        server.route("/hello") { _ in .text("hi") }
        #expect(try await webservice.load(text("/hello")) == "hi")
        let port = server.port

        server.goAway()
        await #expect {
            _ = try await webservice.load(text("/hello"))
        } throws: { error in
            guard case .transport(let failure) = error as? WebserviceError else { return false }
            return failure.code == .cannotConnectToHost || failure.code == .networkConnectionLost
        }

        try server.comeBack()
        #expect(server.port == port)
        #expect(try await webservice.load(text("/hello").ignoringCache()) == "hi")
        // The requests received before it went away are kept.
        #expect(server.requestCount(for: "/hello") == 2)
        server.stop()
        try server.comeBack()
        await #expect(throws: WebserviceError.self) {
            _ = try await webservice.load(text("/hello").ignoringCache())
        }
    }

    @Test(
        "while away, its port is given to no socket that asks for an ephemeral one (Linux)",
        .enabled(if: Self.isLinux)
    )
    func awayKeepsPort() throws {
        let port = server.port
        server.goAway()
        // Three times the ephemeral range: without the reservation, the port comes up
        // about six times.
        var taken = 0
        for _ in 0..<90_000 {
            let socket = try Socket.bound(port: 0)
            if socket.port == port {
                taken += 1
            }
            socket.close()
        }
        #expect(taken == 0)
        try server.comeBack()
        #expect(server.port == port)
    }

    @Test("routes answer by method and path; anything else is 404")
    func routes() async throws {
        server.route("/a") { _ in .text("get a") }
        server.route("/a", method: .put) { _ in .text("put a") }
        #expect(try await webservice.load(text("/a?x=1")) == "get a")
        #expect(try await webservice.load(text("/a", method: .put)) == "put a")
        await #expect(throws: WebserviceError.self) { try await webservice.load(text("/b")) }
    }

    @Test("requests are recorded with method, target, headers and body")
    func recording() async throws {
        server.route("/echo", method: .post) { request in .init(body: request.body) }
        var resource = text("/echo?q=1", method: .post, body: Data("hello".utf8))
        resource = resource.header("X-Trace", "abc")
        #expect(try await webservice.load(resource) == "hello")
        let request = try #require(server.requests.first)
        #expect(request.method == "POST")
        #expect(request.target == "/echo?q=1")
        #expect(request.path == "/echo")
        #expect(request.query("q") == "1")
        #expect(request.header("x-trace") == "abc")
        #expect(server.requestCount(for: "/echo") == 1)
    }

    @Test("sequential requests reuse one keep-alive connection")
    func keepAlive() async throws {
        server.route("/a") { _ in .text("a") }
        for index in 0..<10 {
            _ = try await webservice.load(text("/a?\(index)"))
        }
        #expect(server.requestCount(for: "/a") == 10)
        // URLSession returns a connection to its pool a moment after the response
        // completes, so a request may now and then open another; most reuse one.
        #expect(server.connectionCount < 5)
    }

    @Test("concurrent requests are served on several connections")
    func concurrent() async throws {
        server.route("/slow") { request in
            MockResponse.text(request.query("i") ?? "").delayed(by: .milliseconds(50))
        }
        let webservice = self.webservice
        let resources = (0..<12).map { text("/slow?i=\($0)") }
        let bodies = try await withThrowingTaskGroup(of: String.self) { group in
            for resource in resources {
                group.addTask { try await webservice.load(resource) }
            }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(bodies == Set((0..<12).map(String.init)))
        #expect(server.connectionCount > 1)
    }

    @Test("headers of the response arrive as set")
    func responseHeaders() async throws {
        server.route("/a") { _ in
            MockResponse.text("x").header("ETag", #"W/"1""#).header("Retry-After", "3")
        }
        let resource = Resource<String?>(request: URLRequest(url: server.url("/a"))) {
            _,
            response in
            response.value(forHTTPHeaderField: "etag")
        }
        #expect(try await webservice.load(resource) == #"W/"1""#)
    }

    @Test("a repeated header name is sent as separate fields, in order")
    func repeatedHeaders() async throws {
        server.route("/a") { _ in
            .text("x", headers: [("Link", "<a>; rel=\"next\""), ("Link", "<b>; rel=\"last\"")])
        }
        let resource = Resource<String?>(request: URLRequest(url: server.url("/a"))) {
            _,
            response in
            response.value(forHTTPHeaderField: "link")
        }
        let joined = try await webservice.load(resource)
        #expect(joined?.contains("<a>; rel=\"next\"") == true)
        #expect(joined?.contains("<b>; rel=\"last\"") == true)
    }

    @Test("stop closes the port and cuts a pending delay short")
    func stop() async throws {
        server.route("/held") { _ in MockResponse.text("late").delayed(by: .seconds(120)) }
        let webservice = self.webservice
        let held = text("/held")
        let task = Task { try await webservice.load(held) }
        await server.waitForRequests(1)
        server.stop()
        await #expect(throws: WebserviceError.self) { try await task.valuePropagatingCancellation }
        let error = await #expect(throws: WebserviceError.self) {
            try await webservice.load(text("/held"))
        }
        guard case .transport = error else {
            Issue.record(
                "expected a transport failure after stop, got \(String(describing: error))"
            )
            return
        }
        server.stop()
    }

    @Test("releasing the server stops it")
    func releaseStops() async throws {
        var server: LoopbackServer? = try LoopbackServer()
        let url = try #require(server?.url("/a"))
        weak let weakServer = server
        server = nil
        #expect(weakServer == nil)
        await #expect(throws: WebserviceError.self) {
            try await webservice.load(
                Resource<String>(request: URLRequest(url: url)) { _, _ in "" }
            )
        }
    }

    @Test("a scripted sequence answers in turn, then repeats its last response")
    func answeringInTurn() async throws {
        server.route("/flaky", answering: [.status(503), .text("ok")])
        await #expect(throws: WebserviceError.self) { try await webservice.load(text("/flaky")) }
        #expect(try await webservice.load(text("/flaky")) == "ok")
        #expect(try await webservice.load(text("/flaky")) == "ok")
    }

    @Test("garbage instead of HTTP is a transport failure")
    func garbage() async throws {
        server.route("/garbage") { _ in .garbage(Data("220 smtp.example.com ESMTP\r\n".utf8)) }
        let error = await #expect(throws: WebserviceError.self) {
            try await webservice.load(text("/garbage"))
        }
        guard case .transport = error else {
            Issue.record("expected a transport failure, got \(String(describing: error))")
            return
        }
    }

    @Test("a trickled body arrives whole when it is within the timeout")
    func trickled() async throws {
        server.route("/slow") { _ in
            MockResponse.text(String(repeating: "x", count: 300)).trickled(
                in: 3,
                every: .milliseconds(20)
            )
        }
        #expect(try await webservice.load(text("/slow")).count == 300)
    }
}
