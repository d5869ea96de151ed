import Foundation
import LoadingKitNetworking
import LoadingKitTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Request coalescing", .timeLimit(.minutes(1)))
struct CoalescingTests {
    let mock = MockTransport()
    let episode = Resource<Episode>(url: URL(string: "https://api.example.com/episodes/1")!)

    /// Returns once `count` callers share the webservice's requests in flight.
    func waitForCallers(_ count: Int, on webservice: Webservice) async {
        while webservice.sharedCallers < count, !Task.isCancelled {
            await Task.yield()
        }
    }

    @Test("100 concurrent identical loads send one request and all get the value")
    func hundredLoadsOneRequest() async throws {
        let gate = MockTransport.Gate()
        mock.respond(to: "/episodes/1", with: .json(Episode(id: 1, title: "Pilot")), after: gate)
        let webservice = Webservice(transport: mock)
        let parses = Locked(0)
        let counted = episode.map { value in
            parses.withLock { $0 += 1 }
            return value
        }
        let titles = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<100 {
                group.addTask { try await webservice.load(counted).title }
            }
            await waitForCallers(100, on: webservice)
            gate.open()
            return try await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(titles == Array(repeating: "Pilot", count: 100))
        #expect(mock.requests.count == 1)
        #expect(parses.withLock { $0 } == 1)
        #expect(webservice.requestsInFlight == 0)
    }

    /// Three loads of the episode sharing one request, held at the returned gate.
    func threeCallersSharingOneRequest() async -> (
        MockTransport.Gate, Webservice, [Task<Episode, any Error>]
    ) {
        let gate = MockTransport.Gate()
        mock.respond(to: "/episodes/1", with: .json(Episode(id: 1, title: "Pilot")), after: gate)
        let webservice = Webservice(transport: mock)
        let episode = self.episode
        let tasks = (0..<3).map { _ in Task { try await webservice.load(episode) } }
        await waitForCallers(3, on: webservice)
        return (gate, webservice, tasks)
    }

    @Test("one caller cancelling gets cancelled; the others still get the value")
    func refCountedCancellation() async throws {
        let (gate, _, tasks) = await threeCallersSharingOneRequest()
        tasks[0].cancel()
        await #expect(throws: WebserviceError.cancelled) { try await tasks[0].value }
        #expect(gate.cancellations == 0)
        gate.open()
        #expect(try await tasks[1].value.title == "Pilot")
        #expect(try await tasks[2].value.title == "Pilot")
        #expect(mock.requests.count == 1)
    }

    @Test("the request is cancelled only when every caller has cancelled")
    func lastCancellationCancelsRequest() async throws {
        let (gate, webservice, tasks) = await threeCallersSharingOneRequest()
        await gate.waitForArrivals()
        for task in tasks {
            task.cancel()
        }
        await gate.waitForCancellations(1)
        for task in tasks {
            await #expect(throws: WebserviceError.cancelled) {
                try await task.valuePropagatingCancellation
            }
        }
        #expect(webservice.requestsInFlight == 0)
        mock.respond(to: "/episodes/1", with: .json(Episode(id: 1, title: "Again")))
        #expect(try await webservice.load(episode).title == "Again")
    }

    @Test("requests that differ in headers or method are not coalesced")
    func differentRequests() async throws {
        let gate = MockTransport.Gate()
        mock.respond(to: "/episodes/1", with: .json(Episode(id: 1, title: "a")), after: gate)
        mock.respond(to: "/episodes/1", with: .json(Episode(id: 1, title: "b")), after: gate)
        mock.respond(
            to: "/episodes/1",
            method: .post,
            with: .json(Episode(id: 1, title: "c")),
            after: gate
        )
        mock.respond(
            to: "/episodes/1",
            method: .post,
            with: .json(Episode(id: 1, title: "d")),
            after: gate
        )
        let webservice = Webservice(transport: mock)
        let plain = episode
        let authorized = episode.header("Authorization", "Bearer x")
        var post = episode
        post.request.httpMethod = "POST"
        let posted = post
        async let a = webservice.load(plain)
        async let b = webservice.load(authorized)
        async let c = webservice.load(posted)
        async let d = webservice.load(posted)
        await gate.waitForArrivals(4)
        gate.open()
        let titles = try await Set([a.title, b.title, c.title, d.title])
        #expect(titles == ["a", "b", "c", "d"])
        #expect(mock.requests.count == 4)
    }

    @Test("coalescing can be turned off")
    func turnedOff() async throws {
        let gate = MockTransport.Gate()
        mock.respond(to: "/episodes/1", with: .json(Episode(id: 1, title: "a")), after: gate)
        mock.respond(to: "/episodes/1", with: .json(Episode(id: 1, title: "b")), after: gate)
        let webservice = Webservice(transport: mock, configuration: .init(coalescedMethods: []))
        async let a = webservice.load(episode)
        async let b = webservice.load(episode)
        await gate.waitForArrivals(2)
        gate.open()
        _ = try await (a, b)
        #expect(mock.requests.count == 2)
    }
}
