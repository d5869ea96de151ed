import Foundation
import LoadingKitFixtures
import LoadingKitNetworking
import LoadingKitTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Every request ends by its deadline — the resource's timeout or the transport's,
/// whichever comes first — however slowly its body arrives.
@Suite("Request deadlines", .timeLimit(.minutes(1)))
struct DeadlineTests {
    static let transport = URLSessionTransport(configuration: .init(timeout: 10))

    /// A server whose `/slow` sends a 20-byte body in 20 parts, one every `interval`.
    func slowServer(every interval: Duration) throws -> LoopbackServer {
        let server = try LoopbackServer()
        server.route("/slow") { _ in
            .text(String(repeating: "x", count: 20)).trickled(in: 20, every: interval)
        }
        return server
    }

    func expectTimedOut(_ load: () async throws -> Void) async {
        let error = await #expect(throws: WebserviceError.self) { try await load() }
        guard case .transport(let failure)? = error else {
            Issue.record("expected a transport failure, got \(String(describing: error))")
            return
        }
        #expect(failure.code == .timedOut)
    }

    /// The server's trickling `/slow` body as a string, timed out after `seconds`.
    func slow(on server: LoopbackServer, timeout seconds: TimeInterval) -> Resource<String> {
        Resource<String>(request: URLRequest(url: server.url("/slow"))) { data, _ in
            String(decoding: data, as: UTF8.self)
        }.timeout(seconds)
    }

    /// Loads a trickling body through a transport timed out after `transportTimeout` on
    /// a manual clock, the resource after `resourceTimeout`, moves the clock on 2 s and
    /// expects the load to have timed out.
    func expectTimedOutAfterTwoSeconds(
        transportTimeout: TimeInterval,
        resourceTimeout: TimeInterval
    ) async throws {
        let server = try slowServer(every: .milliseconds(500))
        let clock = ManualClock()
        let transport = URLSessionTransport(
            configuration: .init(timeout: transportTimeout, clock: clock)
        )
        let resource = slow(on: server, timeout: resourceTimeout)
        let load = Task { try await Webservice(transport: transport).load(resource) }
        await server.waitForRequests(1)
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(2))
        await expectTimedOut { _ = try await load.valuePropagatingCancellation }
    }

    @Test("a trickling body ends at the deadline on the transport's clock")
    func deadlineOnTheInjectedClock() async throws {
        try await expectTimedOutAfterTwoSeconds(transportTimeout: 10, resourceTimeout: 2)
    }

    @Test("the transport's timeout is an overall deadline too, when it comes first")
    func transportTimeoutIsADeadline() async throws {
        try await expectTimedOutAfterTwoSeconds(transportTimeout: 2, resourceTimeout: 30)
    }

    @Test("an infinite transport timeout leaves the request's own deadline")
    func infiniteTransportTimeout() async throws {
        try await expectTimedOutAfterTwoSeconds(transportTimeout: .infinity, resourceTimeout: 2)
    }

    @Test("a deadline is kept on a clock with instants of its own")
    func deadlineOnAnyClock() async throws {
        let server = try slowServer(every: .milliseconds(500))
        let clock = SteppingClock()
        let transport = URLSessionTransport(configuration: .init(timeout: 10, clock: clock))
        let resource = slow(on: server, timeout: 2)
        // The clock jumps to each deadline as soon as it is slept on.
        await expectTimedOut { _ = try await Webservice(transport: transport).load(resource) }
        #expect(clock.sleeps.count == 1)
        #expect(clock.sleeps.allSatisfy { $0 > .seconds(1.9) && $0 <= .seconds(2) })
    }

    @Test("a trickling body ends at the deadline on the live clock, not when it is complete")
    func deadlineOnTheLiveClock() async throws {
        // A body of 20 s against a deadline of 2: a deadline that fires late on a loaded
        // machine (4 s late under the thread sanitizer, once) still comes first.
        let server = try slowServer(every: .seconds(1))
        let resource = slow(on: server, timeout: 2)
        await expectTimedOut { _ = try await Webservice(transport: Self.transport).load(resource) }
    }

    @Test("an infinite timeout sets no deadline", arguments: [Double.infinity, 1e300])
    func noDeadline(seconds: Double) async throws {
        let server = try LoopbackServer()
        server.route("/fast") { _ in .json(Episode(id: 1, title: "Pilot")) }
        var request = URLRequest(url: server.url("/fast"))
        request.timeoutInterval = seconds
        let resource = Resource<Episode>(request: request) { data, _ in
            try JSONDecoder().decode(Episode.self, from: data)
        }
        #expect(try await Webservice(transport: Self.transport).load(resource).title == "Pilot")
    }

    @Test("requests that end in time are not affected by deadlines passing later")
    func inTime() async throws {
        let server = try LoopbackServer()
        server.route("/fast") { _ in .json(Episode(id: 1, title: "Pilot")) }
        let clock = ManualClock()
        let transport = URLSessionTransport(configuration: .init(timeout: 10, clock: clock))
        let webservice = Webservice(transport: transport)
        let fast = Resource<Episode>(url: server.url("/fast"))
        #expect(try await webservice.load(fast.timeout(5)).title == "Pilot")
        clock.advance(by: .seconds(6))
        #expect(try await webservice.load(fast.timeout(5)).title == "Pilot")
    }
}
