import Foundation
import LoadingKitTesting
import Testing

@testable import LoadingKitNetworking

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a webservice shares between loads — stored values, validators, coalesced
/// requests — is shared only within one resource identity, and a coalesced request
/// always has a runner.
@Suite("Sharing within one resource identity", .timeLimit(.minutes(2)))
struct SharedStateIdentityTests {
    static let transport = URLSessionTransport(configuration: .init(timeout: 10))

    @Test("4. bob is never handed alice's stored value, whatever the ETag says")
    func credentialsSeparateStoredValues() async throws {
        let server = try LoopbackServer()
        server.route("/me") { request in
            let user = request.header("Authorization")?.replacingOccurrences(
                of: "Bearer ",
                with: ""
            )
            return .revalidating(
                request,
                entityTag: #""same-for-everyone""#,
                .json(Episode(id: 1, title: user ?? ""))
            )
        }
        let webservice = Webservice(transport: Self.transport)
        let me = Resource<Episode>(url: server.url("/me"))

        let alice = try await webservice.load(me.header("Authorization", "Bearer alice"))
        let bob = try await webservice.load(me.header("Authorization", "Bearer bob"))
        let aliceAgain = try await webservice.fetch(me.header("Authorization", "Bearer alice"))

        #expect(alice.title == "alice")
        #expect(bob.title == "bob")
        #expect(server.requests[1].header("If-None-Match") == nil)
        #expect(aliceAgain.isNotModified)
        #expect(aliceAgain.value.title == "alice")
    }

    @Test("removing stored values: the next load sends no validators and gets a fresh value")
    func removeStoredValues() async throws {
        let server = try LoopbackServer()
        server.route("/me") { request in
            .revalidating(request, entityTag: #""v1""#, .json(Episode(id: 1, title: "me")))
        }
        let webservice = Webservice(transport: Self.transport)
        let me = Resource<Episode>(url: server.url("/me"))
        _ = try await webservice.load(me)
        webservice.removeStoredValues()
        let fetched = try await webservice.fetch(me)
        #expect(!fetched.isNotModified)
        #expect(server.requests.last?.header("If-None-Match") == nil)
    }

    @Test("a caller whose task is cancelled already neither starts nor joins a shared request")
    func cancelledCallerDoesNotJoin() async throws {
        let mock = MockTransport()
        let gate = MockTransport.Gate()
        mock.respond(to: "/episodes/1", with: .json(Episode(id: 1, title: "Pilot")), after: gate)
        let webservice = Webservice(transport: mock)
        let resource = Resource<Episode>(url: URL(string: "https://api.example.com/episodes/1")!)
        let other = Task { try await webservice.load(resource) }
        await gate.waitForArrivals()
        let cancelled = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await webservice.fetch(resource)
        }
        await #expect(throws: WebserviceError.cancelled) {
            try await cancelled.valuePropagatingCancellation
        }
        #expect(webservice.sharedCallers == 1)
        gate.open()
        #expect(try await other.value.title == "Pilot")
    }

    @Test("no-store: nothing is kept and no validators are sent later")
    func noStoreKeepsNothing() async throws {
        let server = try LoopbackServer()
        server.route("/a") { request in
            .revalidating(request, entityTag: #""v1""#, .json(Episode(id: 1, title: "a")))
                .header("Cache-Control", "no-store")
        }
        let webservice = Webservice(transport: Self.transport)
        let resource = Resource<Episode>(url: server.url("/a"))
        let first = try await webservice.fetch(resource)
        _ = try await webservice.fetch(resource)
        #expect(first.cacheDirectives.forbidsStoring)
        #expect(first.validators == nil)
        #expect(server.requests.allSatisfy { $0.header("If-None-Match") == nil })
    }

    // MARK: - 7. a coalesced request never hangs

    @Test(
        "7. a caller that leaves as another joins never strands the joiner",
        arguments: [true, false]
    )
    func leavingNeverStrandsJoiner(joinFirst: Bool) async throws {
        let mock = MockTransport()
        let gate = MockTransport.Gate()
        let episode = MockResponse.json(Episode(id: 1, title: "Pilot"))
        mock.respond(to: "/episodes/1", with: episode, after: gate)
        mock.respond(to: "/episodes/1", with: episode)
        let webservice = Webservice(transport: mock)
        let resource = Resource<Episode>(url: URL(string: "https://api.example.com/episodes/1")!)
        let first = webservice.interest(
            in: resource,
            identity: resource.identity,
            progress: nil,
            discarded: nil
        )
        await gate.waitForArrivals()
        if !joinFirst {
            first.leave()
        }
        let joiner = webservice.interest(
            in: resource,
            identity: resource.identity,
            progress: nil,
            discarded: nil
        )
        if joinFirst {
            first.leave()
        }
        gate.open()
        #expect(await first.wait(onCancel: nil) == nil)
        #expect(try await joiner.wait(onCancel: nil)?.get().value.title == "Pilot")
        // Joined in time, the joiner shared the request; else it sent its own.
        #expect(mock.requests.count == (joinFirst ? 1 : 2))
        #expect(webservice.requestsInFlight == 0)
        #expect(webservice.sharedCallers == 0)
    }

    @Test(
        "7. random starts, leavings, cancellations and joins: every caller ends, none is stranded"
    )
    func randomizedCoalescing() async throws {
        let random = RandomSource.seeded(7)
        let transport = YieldingTransport(random: random)
        for round in 0..<400 {
            let webservice = Webservice(transport: transport)
            let resource = Resource<Episode>(url: URL(string: "https://a.test/\(round % 3)")!)
            let first = webservice.interest(
                in: resource,
                identity: resource.identity,
                progress: nil,
                discarded: nil
            )
            let firstWait = Task { await first.wait(onCancel: nil) }
            let joiners = (0..<(1 + Int(random.next() * 3))).map { _ in
                Task { try await webservice.load(resource) }
            }
            let cancelsJoiner = random.next() < 0.3
            for _ in 0..<Int(random.next() * 6) {
                await Task.yield()
            }
            first.leave()
            if cancelsJoiner {
                joiners[0].cancel()
            }
            _ = await firstWait.valuePropagatingCancellation
            for (index, joiner) in joiners.enumerated() {
                let result = await joiner.result
                if index > 0 || !cancelsJoiner {
                    #expect(throws: Never.self, "round \(round)") { try result.get() }
                }
            }
            #expect(webservice.requestsInFlight == 0, "round \(round)")
            #expect(webservice.sharedCallers == 0, "round \(round)")
        }
    }
}

/// A transport that answers every request with an episode after a random number of
/// yields, and with `URLError(.cancelled)` when its task was cancelled by then.
private struct YieldingTransport: Transport {
    let random: RandomSource

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        for _ in 0..<Int(random.next() * 4) {
            await Task.yield()
        }
        guard !Task.isCancelled else { throw URLError(.cancelled) }
        let body = try JSONEncoder().encode(Episode(id: 1, title: "Pilot"))
        let response = HTTPURLResponse(
            url: request.url!,
            statusCode: 200,
            httpVersion: "HTTP/1.1",
            headerFields: [:]
        )!
        return (body, response)
    }
}
