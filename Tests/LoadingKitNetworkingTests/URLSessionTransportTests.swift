import Foundation
import LoadingKitNetworking
import LoadingKitTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `URLSessionTransport` over real HTTP against `LoopbackServer`.
@Suite("URLSessionTransport over loopback", .timeLimit(.minutes(1)))
struct URLSessionTransportTests {
    /// One session for the whole suite, as an app would keep it.
    static let transport = URLSessionTransport(
        configuration: .init(maximumResponseSize: 1 << 20, timeout: 30)
    )
    let server: LoopbackServer
    let webservice = Webservice(transport: Self.transport)

    init() throws {
        server = try LoopbackServer()
    }

    @Test("a JSON GET arrives decoded")
    func jsonGet() async throws {
        server.route("/episodes/1") { _ in .json(Episode(id: 1, title: "Pilot")) }
        let episode = try await webservice.load(Resource<Episode>(url: server.url("/episodes/1")))
        #expect(episode == Episode(id: 1, title: "Pilot"))
        let request = try #require(server.requests.first)
        #expect(request.method == "GET")
        #expect(request.header("accept") == "application/json")
    }

    @Test("a POST sends its JSON body, which the server echoes")
    func postEcho() async throws {
        server.route("/drafts", method: .post) { request in
            .init(
                statusCode: 201,
                headers: [("Content-Type", "application/json")],
                body: request.body
            )
        }
        let draft = Draft(title: "New", tags: ["a", "b"])
        let echoed = try await webservice.load(
            try Resource<Draft>(url: server.url("/drafts"), body: draft)
        )
        #expect(echoed == draft)
        #expect(server.requests.first?.header("content-type") == "application/json")
    }

    @Test("404 and 500 carry their code and body", arguments: [404, 500])
    func errorStatus(code: Int) async throws {
        server.route("/missing") { _ in .text("nothing here \(code)", status: code) }
        let error = await #expect(throws: WebserviceError.self) {
            try await webservice.load(Resource<Episode>(url: server.url("/missing")))
        }
        guard case .badStatus(let failure) = error else {
            Issue.record("expected a bad status, got \(String(describing: error))")
            return
        }
        #expect(failure.statusCode == code)
        #expect(failure.bodyText == "nothing here \(code)")
        #expect(failure.header("content-type") == "text/plain; charset=utf-8")
    }

    @Test(
        "a malformed body is a decoding error",
        arguments: [#"{"id":"one","title":"x"}"#, "<!doctype html><title>Oops</title>", ""]
    )
    func malformedBody(body: String) async throws {
        server.route("/episodes/1") { _ in .text(body) }
        let error = await #expect(throws: WebserviceError.self) {
            try await webservice.load(Resource<Episode>(url: server.url("/episodes/1")))
        }
        guard case .decoding(let failure) = error else {
            Issue.record("expected a decoding error, got \(String(describing: error))")
            return
        }
        #expect(failure.codingPath == (body.hasPrefix("{") ? "id" : ""))
    }

    @Test("a response slower than the timeout fails as timed out")
    func timeout() async throws {
        server.route("/slow") { _ in
            MockResponse.json(Episode(id: 1, title: "late")).delayed(by: .seconds(30))
        }
        let error = await #expect(throws: WebserviceError.self) {
            try await webservice.load(Resource<Episode>(url: server.url("/slow")).timeout(1))
        }
        guard case .transport(let failure) = error else {
            Issue.record("expected a transport failure, got \(String(describing: error))")
            return
        }
        #expect(failure.code == .timedOut)
    }

    @Test("cancelling during a slow response returns cancelled before the server answers")
    func cancelSlowResponse() async throws {
        // The answer would come after two minutes, past the suite's time limit.
        server.route("/slow") { _ in
            MockResponse.json(Episode(id: 1, title: "late")).delayed(by: .seconds(120))
        }
        let webservice = self.webservice
        let resource = Resource<Episode>(url: server.url("/slow"))
        let task = Task { try await webservice.load(resource) }
        await server.waitForRequests(1)
        task.cancel()
        await #expect(throws: WebserviceError.cancelled) {
            try await task.valuePropagatingCancellation
        }
        #expect(server.requestCount(for: "/slow") == 1)
    }

    @Test("a connection dropped mid-body is a transport failure")
    func droppedMidBody() async throws {
        let episodes = (0..<200).map { Episode(id: $0, title: "Episode \($0)") }
        server.route("/episodes") { _ in MockResponse.json(episodes).truncated(afterBodyBytes: 100)
        }
        let error = await #expect(throws: WebserviceError.self) {
            try await webservice.load(Resource<[Episode]>(url: server.url("/episodes")))
        }
        guard case .transport(let failure) = error else {
            Issue.record("expected a transport failure, got \(String(describing: error))")
            return
        }
        // Told in words, not as FoundationNetworking's unknown error.
        #expect(failure.code == .networkConnectionLost)
        #expect(failure.description.hasSuffix(": the connection was lost"))
    }

    @Test("a body over the limit is refused, announced or not")
    func oversizedBody() async throws {
        let big = Data(repeating: UInt8(ascii: "a"), count: 3 << 20)
        server.route("/announced") { _ in .init(body: big) }
        server.route("/streamed") { _ in MockResponse(body: big).withoutContentLength() }
        for path in ["/announced", "/streamed"] {
            let raw = Resource<Data>(request: URLRequest(url: server.url(path))) { data, _ in data }
            let limit = WebserviceError.SizeFailure(
                limit: 1 << 20,
                url: server.url(path),
                method: .get
            )
            await #expect(throws: WebserviceError.responseTooLarge(limit)) {
                try await webservice.load(raw)
            }
        }
    }

    @Test("a body announced over the limit is not downloaded: its task ends at the head")
    func announcedOversizedBodyIsNotDownloaded() async throws {
        // Ten minutes to send it all; FoundationNetworking ignores a .cancel disposition.
        let big = Data(repeating: UInt8(ascii: "a"), count: 3 << 20)
        server.route("/announced") { _ in
            MockResponse(body: big).trickled(in: 600, every: .seconds(1))
        }
        let transport = URLSessionTransport(
            configuration: .init(maximumResponseSize: 1 << 20, timeout: 600)
        )
        let raw = Resource<Data>(request: URLRequest(url: server.url("/announced"))) { data, _ in
            data
        }
        let limit = WebserviceError.SizeFailure(
            limit: 1 << 20,
            url: server.url("/announced"),
            method: .get
        )
        await #expect(throws: WebserviceError.responseTooLarge(limit)) {
            try await Webservice(transport: transport).load(raw)
        }
        while await Self.runningTasks(of: transport.streamingSession) > 0 {
            try Task.checkCancellation()
            await Task.yield()
        }
    }

    /// How many tasks of `session` are running.
    static func runningTasks(of session: URLSession) async -> Int {
        // Cancelled, as by the time limit: counted as running, so the caller's loop
        // checks its cancellation.
        await callback { reply in session.getAllTasks { reply($0.count) } } ?? .max
    }

    @Test("a body without Content-Length within the limit arrives whole")
    func unannouncedBody() async throws {
        server.route("/episodes/1") { _ in
            MockResponse.json(Episode(id: 1, title: "x")).withoutContentLength()
        }
        let episode = try await webservice.load(Resource<Episode>(url: server.url("/episodes/1")))
        #expect(episode.id == 1)
    }

    @Test("a 304 from the server is handed back and typed")
    func notModified() async throws {
        server.route("/episodes/1") { _ in .status(304, headers: [("ETag", #""v1""#)]) }
        let url = server.url("/episodes/1")
        await #expect(throws: WebserviceError.notModifiedWithoutCache(url: url)) {
            try await webservice.load(Resource<Episode>(url: url).header("If-None-Match", #""v1""#))
        }
        #expect(server.requests.first?.header("if-none-match") == #""v1""#)
    }

    @Test("the Link header of a real response resolves against its URL")
    func linkHeader() async throws {
        server.route("/issues") { _ in
            .json(
                [GitHubIssue(number: 1, title: "a")],
                headers: [("Link", #"</issues?page=2>; rel="next""#)]
            )
        }
        let resource = Resource<LinkHeader>(request: URLRequest(url: server.url("/issues"))) {
            _,
            response in
            LinkHeader(response: response)
        }
        let links = try await webservice.load(resource)
        #expect(links.next == server.url("/issues?page=2"))
    }

    @Test("download progress is reported up to the whole body")
    func progress() async throws {
        let episodes = (0..<4000).map { Episode(id: $0, title: "Episode number \($0)") }
        server.route("/episodes") { _ in .json(episodes) }
        let reports = Locked<[TransferProgress]>([])
        let webservice = self.webservice
        let resource = Resource<[Episode]>(url: server.url("/episodes"))
        let loaded = try await TransferProgress.observing { report in
            reports.withLock { $0.append(report) }
        } during: {
            try await webservice.load(resource)
        }
        #expect(loaded.count == 4000)
        let all = reports.withLock { $0 }
        let last = try #require(all.last)
        #expect(last.fractionCompleted == 1)
        #expect(last.bytesReceived == last.expectedBytes)
        #expect(all.map(\.bytesReceived) == all.map(\.bytesReceived).sorted())
    }

    #if canImport(FoundationNetworking)
        @Test("the session's callbacks run at once, inside the call that delivers them")
        func callbacksRunWithoutHandOff() async {
            let delivering = Locked(false)
            let ranInside = await callback { reply in
                delivering.withLock { $0 = true }
                Self.transport.streamingSession.delegateQueue.addOperation {
                    reply(delivering.withLock { $0 })
                }
                delivering.withLock { $0 = false }
            }
            #expect(ranInside == true)
        }
    #endif

    @Test("a completion handler on the transport's public session may start the next task")
    func plainSessionChainsTasks() async throws {
        server.route("/episodes/1") { _ in .json(Episode(id: 1, title: "Pilot")) }
        let session = Self.transport.session
        let url = server.url("/episodes/1")
        let second = await callback { reply in
            session.dataTask(with: url) { _, _, _ in
                session.dataTask(with: url) { data, _, _ in reply(data) }.resume()
            }.resume()
        }
        let episode = try JSONDecoder().decode(Episode.self, from: try #require(second ?? nil))
        #expect(episode.title == "Pilot")
        #expect(session !== Self.transport.streamingSession)
    }

    @Test("a transport reads the observer that observing(_:during:) sets, and only there")
    func observerScope() async throws {
        #expect(TransferProgress.observer == nil)
        let inside = Locked<[TransferProgress]>([])
        let seen = await TransferProgress.observing { report in
            inside.withLock { $0.append(report) }
        } during: {
            TransferProgress.observer?(TransferProgress(bytesReceived: 1, expectedBytes: 2))
            return TransferProgress.observer != nil
        }
        #expect(seen)
        #expect(inside.withLock { $0 } == [TransferProgress(bytesReceived: 1, expectedBytes: 2)])
        #expect(TransferProgress.observer == nil)
    }

    @Test("the completion form works over real HTTP")
    func completionForm() async throws {
        server.route("/episodes/1") { _ in .json(Episode(id: 1, title: "Pilot")) }
        let resource = Resource<Episode>(url: server.url("/episodes/1"))
        let result = await callback { reply in
            webservice.load(resource, queue: .global(), completion: reply)
        }
        #expect(try result?.get().title == "Pilot")
    }

    @Test("hundreds of randomly cancelled requests all finish, each ok or cancelled")
    func cancellationChurn() async throws {
        var generator = SeededGenerator(seed: 0x10AD)
        let delays = (0..<300).map { _ in Int.random(in: 0...20, using: &generator) }
        server.route("/churn") { request in
            let delay = Int(request.query("ms") ?? "0") ?? 0
            return MockResponse.json(Episode(id: delay, title: "churn")).delayed(
                by: .milliseconds(delay)
            )
        }
        let webservice = self.webservice
        let outcomes = await withTaskGroup(of: String.self) { group in
            for (index, delay) in delays.enumerated() {
                let resource = Resource<Episode>(url: server.url("/churn?ms=\(delay)&i=\(index)"))
                let task = Task { try await webservice.load(resource) }
                let yields = Int.random(in: 0...40, using: &generator)
                let cancels = index % 4 != 0
                group.addTask {
                    if cancels {
                        for _ in 0..<yields { await Task.yield() }
                        task.cancel()
                    }
                    do {
                        _ = try await task.valuePropagatingCancellation
                        return "ok"
                    } catch let error as WebserviceError where error == .cancelled {
                        return "cancelled"
                    } catch {
                        return "failed: \(error)"
                    }
                }
            }
            return await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(outcomes.count == 300)
        #expect(
            outcomes.allSatisfy { $0 == "ok" || $0 == "cancelled" },
            "\(outcomes.filter { $0.hasPrefix("failed") })"
        )
        #expect(outcomes.contains("ok"))
        #expect(outcomes.contains("cancelled"))
    }
    @Test("ETag revalidation over real HTTP: the second load is a 304 answered from the store")
    func entityTagOverHTTP() async throws {
        server.route("/episodes/1") { request in
            if request.header("if-none-match") == #""v1""# {
                return .status(304, headers: [("ETag", #""v1""#)])
            }
            return .json(Episode(id: 1, title: "Pilot"), headers: [("ETag", #""v1""#)])
        }
        let webservice = Webservice(transport: Self.transport)
        let resource = Resource<Episode>(url: server.url("/episodes/1"))
        let first = try await webservice.fetch(resource)
        let second = try await webservice.fetch(resource)
        #expect(!first.isNotModified)
        #expect(second.isNotModified)
        #expect(second.value == first.value)
        #expect(server.requests.map { $0.header("if-none-match") } == [nil, #""v1""#])
    }

    @Test("Retry-After over real HTTP is honoured on the injected clock")
    func retryAfterOverHTTP() async throws {
        server.route(
            "/episodes/1",
            answering: [
                .text("maintenance", status: 503, headers: [("Retry-After", "2")]),
                .json(Episode(id: 1, title: "Back")),
            ]
        )
        let clock = ManualClock()
        let webservice = Webservice(
            transport: Self.transport,
            configuration: .init(retry: .standard, clock: clock)
        )
        let resource = Resource<Episode>(url: server.url("/episodes/1"))
        let task = Task { try await webservice.load(resource) }
        await clock.waitForSleepers(1)
        #expect(clock.sleeps == [.seconds(2)])
        clock.advance(by: .seconds(2))
        #expect(try await task.value.title == "Back")
        #expect(server.requestCount(for: "/episodes/1") == 2)
    }
}

/// The loopback response type, named as the tests use it.
