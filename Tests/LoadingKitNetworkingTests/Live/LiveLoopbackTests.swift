import Foundation
import LoadingKitNetworking
import LoadingKitTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Live resources over a real connection", .timeLimit(.minutes(1)))
struct LiveLoopbackTests {
    let server: LoopbackServer
    let transport = URLSessionTransport()

    init() throws {
        server = try LoopbackServer()
    }

    func live(_ path: String, idleTimeout: Duration? = nil) -> LiveResource<ServerSentEvent> {
        LiveResource(url: server.url(path))
            .reconnecting(steadyReconnection(delay: .milliseconds(10), idleTimeout: idleTimeout))
    }

    @Test("events a real server pushes arrive one at a time, while the body goes on")
    func pushedEvents() async {
        let body = StreamedBody()
        server.route("/events") { _ in .eventStream(body) }
        var reader = UpdateReader(Webservice(transport: transport).follow(live("/events")))
        _ = await reader.state { $0 == .connected }
        body.send("id: 1\ndata: first\n\n")
        #expect(await reader.events(1) == [ServerSentEvent(data: "first", lastEventID: "1")])
        body.send("data: sec")
        body.send("ond\n\n")
        #expect(await reader.events(1).map(\.data) == ["second"])
    }

    #if canImport(FoundationNetworking)
        @Test(
            "on Linux a stream's new connection is opened by an OPTIONS that ends first: the stream is its second request"
        )
        func connectionOpenedFirst() async throws {
            let body = StreamedBody()
            server.route("/events") { _ in .eventStream(body) }
            var request = URLRequest(url: server.url("/events"))
            request.setValue("text/event-stream", forHTTPHeaderField: "Accept")
            request.setValue("Bearer s3cret", forHTTPHeaderField: "Authorization")
            let (stream, response) = try await transport.stream(request)
            #expect(response.statusCode == 200)
            let requests = server.requests
            #expect(requests.map(\.method) == ["OPTIONS", "GET"])
            #expect(requests.map(\.numberOnConnection) == [1, 2])
            // Bare: none of the stream's header fields.
            #expect(requests.map { $0.header("Authorization") } == [nil, "Bearer s3cret"])
            #expect(requests.first?.header("Accept") != "text/event-stream")
            stream.cancel()
        }

        @Test(
            "a server that answers OPTIONS with an endless stream of its own still gets the stream, on a connection of its own"
        )
        func endlessOptions() async throws {
            let options = StreamedBody()
            let body = StreamedBody()
            server.route("/events", method: .options) { _ in .eventStream(options) }
            server.route("/events") { _ in .eventStream(body) }
            options.send(": the server streams whatever the method\n\n")
            let (stream, response) = try await transport.stream(
                URLRequest(url: server.url("/events"))
            )
            #expect(response.statusCode == 200)
            let requests = server.requests
            #expect(requests.map(\.method) == ["OPTIONS", "GET"])
            #expect(requests.map(\.numberOnConnection) == [1, 1])
            body.send("data: one\n\n")
            var received = ""
            for try await chunk in stream {
                received += String(decoding: chunk, as: UTF8.self)
                if received.hasSuffix("\n\n") { break }
            }
            #expect(received == "data: one\n\n")
            stream.cancel()
        }

        @Test("the OPTIONS follows no redirect, and a transport can do without it")
        func optionsRedirectedOrOff() async throws {
            let other = try LoopbackServer()
            other.route("/elsewhere", method: .options) { _ in .status(204) }
            server.route("/events", method: .options) { _ in
                .status(307).header("Location", other.url("/elsewhere").absoluteString)
            }
            server.route("/events") { _ in .eventStream(StreamedBody()) }
            var request = URLRequest(url: server.url("/events"))
            request.setValue("Bearer s3cret", forHTTPHeaderField: "Authorization")
            let (first, _) = try await transport.stream(request)
            first.cancel()
            #expect(other.requests.isEmpty)

            let plain = URLSessionTransport(configuration: .init(opensStreamsWithOptions: false))
            let (second, _) = try await plain.stream(request)
            second.cancel()
            #expect(server.requests.map(\.method) == ["OPTIONS", "GET", "GET"])
        }
    #endif

    @Test("live streams open to a host take none of the connections its loads may use")
    func streamsLeaveLoadsTheirConnections() async throws {
        let transport = URLSessionTransport(configuration: .init(maximumConnectionsPerHost: 2))
        let webservice = Webservice(transport: transport)
        let bodies = (0..<3).map { _ in StreamedBody() }
        for (index, body) in bodies.enumerated() {
            server.route("/events/\(index)") { _ in .eventStream(body) }
        }
        server.route("/title") { _ in .json("ready") }
        var readers = bodies.indices.map { UpdateReader(webservice.follow(live("/events/\($0)"))) }
        for index in readers.indices {
            _ = await readers[index].state { $0 == .connected }
        }
        let title = try await webservice.load(
            Resource<String>(url: server.url("/title")).timeout(5)
        )
        #expect(title == "ready")
        withExtendedLifetime(readers) {}
    }

    @Test(
        "a follower that reads nothing while the server sends 20 MB then gets every event, in order"
    )
    func followerFarBehind() async {
        let total = 20_000
        let padding = String(repeating: "x", count: 1_000)
        let (sentAll, sent) = AsyncStream<Void>.makeStream()
        let body = StreamedBody { body in
            for number in 1...total {
                guard body.send("id: \(number)\ndata: \(number) \(padding)\n\n") else { return }
            }
            body.end()
            sent.yield()
        }
        server.route("/many") { _ in .eventStream(body) }
        var reader = UpdateReader(Webservice(transport: transport).follow(live("/many")))
        _ = await reader.state { $0 == .connected }
        // The reading holds for the follower far behind; the chunks wait in the relay.
        for await _ in sentAll { break }
        let numbers = await reader.events(total).compactMap { Int($0.data.prefix { $0 != " " }) }
        #expect(numbers == Array(1...total))
    }

    @Test(
        "a connection the server drops mid-event is made again with Last-Event-ID: nothing lost, nothing twice"
    )
    func resumesAfterDrops() async {
        let total = 200
        let connections = Locked(0)
        server.route("/numbers") { request in
            let from = request.header("Last-Event-ID").flatMap(Int.init) ?? 0
            connections.withLock { $0 += 1 }
            return .eventStream(
                StreamedBody { body in
                    // Each connection sends 30 events, then half of the next one.
                    let end = min(total, from + 30)
                    for number in from + 1...max(from + 1, end) where number <= total {
                        guard body.send("id: \(number)\ndata: \(number)\n\n") else { return }
                    }
                    if end < total {
                        body.send("id: \(end + 1)\ndata: \(end + 1)")
                        body.drop()
                    } else {
                        body.end()
                    }
                }
            )
        }
        let following = Webservice(transport: transport).follow(live("/numbers"))
        var reader = UpdateReader(following)
        let received = await reader.events(total).map(\.data)
        following.stop()
        #expect(received == (1...total).map(String.init))
        #expect(connections.withLock { $0 } >= 7)
    }

    @Test(
        "a body nobody reads past the limit kept stops the transfer, then gives what was kept and the error"
    )
    func unreadBodyPastTheLimit() async throws {
        let chunk = Data(repeating: 7, count: 1 << 20)
        let (served, done) = AsyncStream<Void>.makeStream()
        let body = StreamedBody { body in
            // Until the client leaves.
            while body.send(chunk) {}
            done.yield()
        }
        server.route("/big") { _ in .streamed(body) }
        let (received, _) = try await transport.stream(URLRequest(url: server.url("/big")))
        // Nobody reads while the server sends: past the limit kept, the transfer stops.
        for await _ in served { break }
        var bytes = 0
        do {
            for try await next in received {
                bytes += next.count
            }
            Issue.record("expected the body to end with responseTooLarge after \(bytes) bytes")
        } catch WebserviceError.responseTooLarge {
            #expect(bytes >= HeldChunks.defaultFileLimit)
            #expect(bytes <= HeldChunks.defaultFileLimit + HeldChunks.defaultMemoryLimit)
        }
    }

    @Test("stopping following stops the transfer: the server sees the client leave")
    func stoppingStopsTheTransfer() async {
        let body = StreamedBody()
        server.route("/events") { _ in .eventStream(body) }
        let webservice = Webservice(transport: transport)
        let following = webservice.follow(live("/events"))
        await body.waitUntilOpened()
        following.stop()
        await body.waitUntilClientLeft()
        #expect(body.hasClientLeft)
        #expect(webservice.liveConnectionCount == 0)
    }

    @Test("a redirect to another origin carries no credential, as for loads")
    func redirectDropsCredentials() async throws {
        let other = try LoopbackServer()
        let body = StreamedBody()
        other.route("/events") { _ in .eventStream(body) }
        server.route("/events") { _ in
            .status(307, headers: ["Location": other.url("/events").absoluteString])
        }
        let authenticator = Authenticator(credential: Credential(account: "a", bearer: "secret")) {
            $0
        }
        let webservice = Webservice(
            transport: transport,
            configuration: .init(authenticator: authenticator)
        )
        var reader = UpdateReader(webservice.follow(live("/events")))
        _ = await reader.state { $0 == .connected }
        #expect(
            server.requests.first { $0.method == "GET" }?.header("Authorization") == "Bearer secret"
        )
        #expect(other.requests.first?.header("Authorization") == nil)
        #expect(other.requests.first?.header("Accept") == "text/event-stream")
    }

    @Test(
        "a server that accepts and never writes is given up after the idle timeout, and asked again"
    )
    func silentServer() async {
        let silent = StreamedBody()
        let answering = StreamedBody()
        server.route("/events", answering: [.eventStream(silent), .eventStream(answering)])
        var reader = UpdateReader(
            Webservice(transport: transport).follow(live("/events", idleTimeout: .seconds(1)))
        )
        let next = await reader.state { $0.isReconnecting }?.reconnection
        #expect(next?.reason == .idle)
        _ = await reader.state { $0 == .connected }
        answering.send("data: at last\n\n")
        #expect(await reader.events(1).map(\.data) == ["at last"])
    }

    @Test(
        "bad answers end as typed states: 204 stops, 4xx and an HTML page stop, 5xx reconnects",
        arguments: [
            (MockResponse.status(204), "stopped"),
            (MockResponse.text("missing", status: 404), "stopped"),
            (
                MockResponse(
                    statusCode: 200,
                    headers: ["Content-Type": "text/html"],
                    body: Data("<html><body>maintenance</body></html>".utf8)
                ), "stopped"
            ),
            (MockResponse.text("busy", status: 502), "reconnecting"),
        ]
    )
    func badAnswers(_ response: MockResponse, _ outcome: String) async {
        server.route("/events") { _ in response }
        var reader = UpdateReader(Webservice(transport: transport).follow(live("/events")))
        let state = await reader.state { $0.stop != nil || $0.isReconnecting }
        #expect((state?.stop != nil ? "stopped" : "reconnecting") == outcome)
        #expect(state?.description.contains("maintenance") == false)
    }

    @Test(
        "invalid UTF-8 is read as U+FFFD, and an event that then fails to decode is a typed error"
    )
    func invalidUTF8() async {
        let body = StreamedBody()
        server.route("/events") { _ in .eventStream(body) }
        let episodes = LiveResource<Episode>(url: server.url("/events"))
            .reconnecting(steadyReconnection())
        var reader = UpdateReader(Webservice(transport: transport).follow(episodes))
        _ = await reader.state { $0 == .connected }
        // "data: " then 0xFF, and a character cut after two of its three bytes.
        body.send(Data([0x64, 0x61, 0x74, 0x61, 0x3A, 0x20, 0xFF, 0xE2, 0x82, 0x0A, 0x0A]))
        guard case .undecodable(let raw, .webservice(.decoding)) = await reader.next() else {
            Issue.record("the event was not reported as undecodable")
            return
        }
        #expect(raw.data == "\u{FFFD}\u{FFFD}")
    }
}
