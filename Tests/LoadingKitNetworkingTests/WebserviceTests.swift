import Foundation
import LoadingKitNetworking
import LoadingKitTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Webservice", .timeLimit(.minutes(1)))
struct WebserviceTests {
    let mock = MockTransport()
    var webservice: Webservice { Webservice(transport: mock) }
    let episodeURL = URL(string: "https://api.example.com/episodes/1")!
    var episode: Resource<Episode> { Resource(url: episodeURL) }

    @Test("a successful load parses the body")
    func success() async throws {
        mock.respond(to: "/episodes/1", with: .json(Episode(id: 1, title: "Pilot")))
        let value = try await webservice.load(episode)
        #expect(value == Episode(id: 1, title: "Pilot"))
        #expect(mock.requests.map(\.url) == [episodeURL])
        try mock.verifyAllConsumed()
    }

    @Test("a status outside the accepted ones is a bad status with code, headers and body")
    func badStatus() async throws {
        let exchange = try #require(RecordedExchange.scenario("errors").first)
        mock.respond(
            to: "/episodes/1",
            with: MockResponse(
                statusCode: exchange.status,
                headers: exchange.headers,
                body: exchange.body
            )
        )
        let error = await #expect(throws: WebserviceError.self) {
            try await webservice.load(episode)
        }
        guard case .badStatus(let failure) = error else {
            Issue.record("expected a bad status, got \(String(describing: error))")
            return
        }
        #expect(failure.statusCode == 422)
        #expect(failure.body == exchange.body)
        #expect(failure.header("content-type") == "application/json; charset=utf-8")
        #expect(failure.bodyText?.contains("Validation Failed") == true)
        #expect(
            error?.description == "Bad status 422 for GET https://api.example.com/episodes/1"
        )
    }

    @Test("an accepted non-2xx status is parsed")
    func acceptedStatus() async throws {
        mock.respond(to: "/episodes/1", with: .json(Episode(id: 0, title: "gone"), status: 410))
        let value = try await webservice.load(episode.accepting(statusCodes: IndexSet([200, 410])))
        #expect(value.title == "gone")
    }

    @Test(
        "malformed bodies are decoding errors with a path",
        arguments: [
            (#"{"id":1,"title":5}"#, "title"),
            (#"{"id":1}"#, "title"),
            ("<html><body>502 Bad Gateway</body></html>", ""),
            ("", ""),
            (#"{"id":1,"title":"tru"#, ""),
        ]
    )
    func decodingFailure(body: String, path: String) async throws {
        mock.respond(to: "/episodes/1", with: .text(body))
        let error = await #expect(throws: WebserviceError.self) {
            try await webservice.load(episode)
        }
        guard case .decoding(let failure) = error else {
            Issue.record("expected a decoding error, got \(String(describing: error))")
            return
        }
        #expect(failure.codingPath == path)
        #expect(!failure.message.isEmpty)
        #expect(failure.url == episodeURL)
    }

    @Test("the path of a nested decoding failure reads like code")
    func nestedPath() async throws {
        mock.respond(to: "/episodes", with: .text(#"[{"id":1,"title":"a"},{"id":2,"title":null}]"#))
        let error = await #expect(throws: WebserviceError.self) {
            try await webservice.load(
                Resource<[Episode]>(url: URL(string: "https://api.example.com/episodes")!)
            )
        }
        guard case .decoding(let failure) = error else {
            Issue.record("expected a decoding error")
            return
        }
        #expect(failure.codingPath == "[1].title")
        #expect(error?.description.contains("Decoding failed at [1].title") == true)
    }

    @Test("a transport failure keeps the URL error")
    func transportFailure() async throws {
        mock.fail("/episodes/1", with: URLError(.notConnectedToInternet))
        let error = await #expect(throws: WebserviceError.self) {
            try await webservice.load(episode)
        }
        guard case .transport(let failure) = error else {
            Issue.record("expected a transport failure")
            return
        }
        #expect(failure.code == .notConnectedToInternet)
        #expect(failure.url == episodeURL)
    }

    @Test("URLError(.cancelled) and CancellationError are both cancellation")
    func cancellationMapping() async throws {
        mock.fail("/episodes/1", with: URLError(.cancelled))
        mock.fail("/episodes/1", with: CancellationError())
        for _ in 0..<2 {
            await #expect(throws: WebserviceError.cancelled) { try await webservice.load(episode) }
        }
    }

    @Test("a 304 with nothing known is a typed error")
    func notModified() async throws {
        mock.respond(to: "/episodes/1", with: .status(304))
        await #expect(throws: WebserviceError.notModifiedWithoutCache(url: episodeURL)) {
            try await webservice.load(episode)
        }
    }

    @Test("cancelling the calling task ends a held load as cancelled")
    func cancellingTask() async throws {
        let gate = MockTransport.Gate()
        mock.respond(to: "/episodes/1", with: .json(Episode(id: 1, title: "late")), after: gate)
        let webservice = self.webservice
        let episode = self.episode
        let task = Task { try await webservice.load(episode) }
        await gate.waitForArrivals(1)
        task.cancel()
        await #expect(throws: WebserviceError.cancelled) {
            try await task.valuePropagatingCancellation
        }
        gate.open()
    }

    @Test("a load from an already cancelled task sends nothing")
    func alreadyCancelled() async throws {
        let webservice = self.webservice
        let episode = self.episode
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await webservice.load(episode)
        }
        await #expect(throws: WebserviceError.cancelled) {
            try await task.valuePropagatingCancellation
        }
        #expect(mock.requests.isEmpty)
    }

    @Test("the completion form delivers the value on the given queue")
    func completionSuccess() async throws {
        mock.respond(to: "/episodes/1", with: .json(Episode(id: 1, title: "Pilot")))
        let queue = DispatchQueue(label: "completion")
        let key = DispatchSpecificKey<Bool>()
        queue.setSpecific(key: key, value: true)
        let delivered = await callback { reply in
            webservice.load(episode, queue: queue) { result in
                reply((result, DispatchQueue.getSpecific(key: key) == true))
            }
        }
        let (result, onQueue) = try #require(delivered)
        #expect(try result.get() == Episode(id: 1, title: "Pilot"))
        #expect(onQueue)
    }

    @Test("cancelling the completion form's task reports cancelled exactly once")
    func completionCancelled() async throws {
        let gate = MockTransport.Gate()
        mock.respond(to: "/episodes/1", with: .json(Episode(id: 1, title: "late")), after: gate)
        let queue = DispatchQueue(label: "completion")
        await confirmation(expectedCount: 1) { called in
            let result = await callback { reply in
                let task = webservice.load(episode, queue: queue) { result in
                    called()
                    reply(result)
                }
                Task {
                    await gate.waitForArrivals(1)
                    task.cancel()
                }
            }
            #expect(throws: WebserviceError.cancelled) { try result?.get() }
        }
        gate.open()
    }
}
