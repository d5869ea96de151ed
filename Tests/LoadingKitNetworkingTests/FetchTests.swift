import Foundation
import LoadingKitTesting
import Testing

@testable import LoadingKitNetworking

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A resource's one fetch: a load decided while it is in flight shares it, whenever
/// the load's waiting begins; a caller that leaves returns at once; nothing is kept
/// once the fetch is over. Over real `URLSession` against a loopback server where a
/// request is counted.
@Suite("The one fetch of a resource", .timeLimit(.minutes(10)))
struct FetchTests {
    let server: LoopbackServer
    let webservice = Webservice(transport: URLSessionTransport())
    let latest = Locked(1)

    init() throws {
        server = try LoopbackServer()
        server.route("/episodes/1") { [latest] _ in
            .json(Episode(id: 1, title: "Take \(latest.withLock { $0 })"))
        }
    }

    private var episode: Resource<Episode> { Resource(url: server.url("/episodes/1")) }

    /// A loader's decision to load the episode now: its interest in the fetch.
    private func decide() -> FetchInterest<Result<Fetched<Episode>, WebserviceError>> {
        webservice.interest(in: episode, identity: episode.identity, progress: nil, discarded: nil)
    }

    @Test(
        "a load decided while an identical request is in flight shares it, waited for after it ended"
    )
    func decidedDuringRequestShares() async throws {
        let gate = MockTransport.Gate()
        let mock = MockTransport()
        mock.respond(to: "/episodes/1", with: .json(Episode(id: 1, title: "Take 1")), after: gate)
        let webservice = Webservice(transport: mock)
        let resource = Resource<Episode>(url: URL(string: "https://api.example.com/episodes/1")!)
        let other = Task { try await webservice.load(resource) }
        await gate.waitForArrivals()
        let decided = webservice.interest(
            in: resource,
            identity: resource.identity,
            progress: nil,
            discarded: nil
        )
        gate.open()
        #expect(try await other.value.title == "Take 1")
        // The request ended before the decided load began to wait: it shares it anyway.
        #expect(try await decided.wait(onCancel: nil)?.get().value.title == "Take 1")
        #expect(mock.requests.count == 1)
    }

    @Test("a load decided after an identical request ended sends its own")
    func decidedAfterSendsRequest() async throws {
        _ = try await webservice.load(episode)
        latest.withLock { $0 += 1 }
        let fetched = try #require(await decide().wait(onCancel: nil)).get()
        #expect(fetched.value.title == "Take 2")
        #expect(server.requestCount(for: "/episodes/1") == 2)
    }

    @Test("a caller that leaves returns at once; the fetch goes on for the others")
    func leaverReturnsAtOnce() async throws {
        let gate = MockTransport.Gate()
        let mock = MockTransport()
        mock.respond(to: "/episodes/1", with: .json(Episode(id: 1, title: "Take 1")), after: gate)
        let webservice = Webservice(transport: mock)
        let resource = Resource<Episode>(url: URL(string: "https://api.example.com/episodes/1")!)
        let other = Task { try await webservice.load(resource) }
        await gate.waitForArrivals()
        let leaver = Task { try await webservice.load(resource) }
        while webservice.sharedCallers < 2, !Task.isCancelled {
            await Task.yield()
        }
        leaver.cancel()
        await #expect(throws: WebserviceError.cancelled) {
            try await leaver.valuePropagatingCancellation
        }
        #expect(webservice.sharedCallers == 1)
        gate.open()
        #expect(try await other.value.title == "Take 1")
        #expect(mock.requests.count == 1)
    }

    @Test(
        "a fetch only an abandoned load's work wants is not joined: a load decided now sends anew"
    )
    func abandonedWorkIsNotJoined() async throws {
        let gate = MockTransport.Gate(honorsCancellation: false)
        let mock = MockTransport()
        mock.respond(to: "/episodes/1", with: .json(Episode(id: 1, title: "Take 1")), after: gate)
        mock.respond(to: "/episodes/1", with: .json(Episode(id: 1, title: "Take 2")), after: gate)
        let webservice = Webservice(transport: mock)
        let resource = Resource<Episode>(url: URL(string: "https://api.example.com/episodes/1")!)
        let paused = Locked<CheckedContinuation<Void, Never>?>(nil)
        let pausing = AsyncStream<Void>.makeStream()
        // A page's or refresh's work: it joins the episode's fetch, and its thread is
        // paused before it waits — so it has not seen its load's cancellation yet.
        let abandoned = Fetch.start { () async -> Bool in
            let interest = webservice.interest(
                in: resource,
                identity: resource.identity,
                progress: nil,
                discarded: nil
            )
            await withCheckedContinuation { continuation in
                paused.withLock { $0 = continuation }
                pausing.continuation.finish()
            }
            interest.leave()
            return true
        }
        for await _ in pausing.stream {}
        await gate.waitForArrivals()
        abandoned.leave()
        let decided = webservice.interest(
            in: resource,
            identity: resource.identity,
            progress: nil,
            discarded: nil
        )
        try #require(webservice.sharedCallers == 1, "the new load joined a fetch nobody wants")
        await gate.waitForArrivals(2)
        gate.open()
        #expect(try await decided.wait(onCancel: nil)?.get().value.title == "Take 2")
        paused.withLock { $0 }?.resume()
        #expect(mock.requests.count == 2)
    }

    @Test(
        "a cancellation before the fetch's task exists is kept: the work starts cancelled",
        arguments: [false, true]
    )
    func cancelledBeforeTask(byLeaving: Bool) async throws {
        let resource = Resource<Episode>(url: URL(string: "https://api.example.com/episodes/1")!)
        let key = FetchTable.Key(identity: resource.identity, ignoresCache: false, credential: 0)
        // A joinable fetch is put in its table before its task is made, outside the
        // table's lock: its last caller can leave, or the table cancel it, in between.
        let fetch = Fetch.joinable(guardedBy: Locked([:]), key: key, discarded: nil, enclosing: nil)
        if byLeaving {
            fetch.leave(Fetch.firstInterest)
        } else {
            fetch.cancel()
        }
        let seen = AsyncStream<Bool>.makeStream()
        fetch.run(progress: nil) { () async -> Int in
            seen.continuation.yield(Task.isCancelled)
            seen.continuation.finish()
            return 0
        }
        var sawCancellation = seen.stream.makeAsyncIterator()
        #expect(await sawCancellation.next() == true)
    }

    @Test("a fetch cancelled after its task started is cancelled once it runs")
    func cancelledAfterTask() async throws {
        let resource = Resource<Episode>(url: URL(string: "https://api.example.com/episodes/1")!)
        let key = FetchTable.Key(identity: resource.identity, ignoresCache: false, credential: 0)
        let fetch = Fetch.joinable(guardedBy: Locked([:]), key: key, discarded: nil, enclosing: nil)
        let started = AsyncStream<Void>.makeStream()
        let cancelled = AsyncStream<Void>.makeStream()
        fetch.run(progress: nil) { () async -> Bool in
            await withTaskCancellationHandler {
                started.continuation.finish()
                for await _ in cancelled.stream {}
                return Task.isCancelled
            } onCancel: {
                cancelled.continuation.finish()
            }
        }
        for await _ in started.stream {}
        fetch.cancel()
        let outcome = await FetchInterest<Bool>(fetch: fetch, id: Fetch.firstInterest)
            .wait(onCancel: nil)
        #expect(outcome == true)
    }

    @Test("200,000 loads that left their fetch as it was sent leave nothing behind")
    func leftFetchesLeaveNothing() async throws {
        let transport = HoldingTransport()
        let webservice = Webservice(transport: transport)
        let resource = Resource<Episode>(url: URL(string: "https://api.example.com/episodes/1")!)
        for _ in 0..<200_000 {
            let arrived = AsyncStream<Void>.makeStream()
            let released = AsyncStream<Void>.makeStream()
            let over = AsyncStream<Void>.makeStream()
            transport.next.withLock { $0 = (arrived.continuation, released.stream) }
            let interest = webservice.interest(
                in: resource,
                identity: resource.identity,
                progress: nil,
                discarded: { over.continuation.finish() }
            )
            for await _ in arrived.stream {}
            interest.leave()
            released.continuation.finish()
            for await _ in over.stream {}
        }
        #expect(transport.sent.withLock { $0 } == 200_000)
        #expect(webservice.requestsInFlight == 0)
        #expect(webservice.sharedCallers == 0)
    }
}

/// A transport that tells the test its request arrived, answers with an episode once
/// the test releases it, and counts what was sent.
private final class HoldingTransport: Transport {
    let next = Locked<(arrived: AsyncStream<Void>.Continuation, released: AsyncStream<Void>)?>(nil)
    let sent = Locked(0)

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        sent.withLock { $0 += 1 }
        if let (arrived, released) = next.withLock({ $0 }) {
            arrived.finish()
            for await _ in released {}
        }
        let body = Data(#"{"id":1,"title":"Pilot"}"#.utf8)
        let response = HTTPURLResponse(
            url: request.url!,
            statusCode: 200,
            httpVersion: "HTTP/1.1",
            headerFields: [:]
        )!
        return (body, response)
    }
}
