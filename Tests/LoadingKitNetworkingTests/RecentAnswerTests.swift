import Foundation
import LoadingKitNetworking
import LoadingKitTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A load decided while an identical request was in flight, whose fetch reaches the
/// coalescer only after that request ended, takes its answer, as it would have had it
/// joined in time — the window in which two screens polled at once used to send two
/// requests. Over real `URLSession` against a loopback server.
@Suite("Answers that ended on the way", .timeLimit(.minutes(1)))
struct RecentAnswerTests {
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

    /// A request that ends before the load decided at `lease` reaches the coalescer.
    private func requestEnds() async throws {
        _ = try await webservice.fetch(episode, lease: FetchLease())
        latest.withLock { $0 += 1 }
    }

    @Test("a load decided before an identical request ended, fetched after it, shares its answer")
    func sharesAnswerThatEndedOnTheWay() async throws {
        let lease = FetchLease(decidedAfter: webservice.answerMark)
        try await requestEnds()
        let shared = try await webservice.fetch(episode, lease: lease)
        #expect(shared.value.title == "Take 1")
        #expect(server.requestCount(for: "/episodes/1") == 1)
    }

    @Test("only the first fetch of a load shares an answer: the next was decided by it")
    func onlyFirstFetchShares() async throws {
        server.route("/episodes/2") { [latest] _ in
            .json(Episode(id: 2, title: "Take \(latest.withLock { $0 })"))
        }
        let next = Resource<Episode>(url: server.url("/episodes/2"))
        let lease = FetchLease(decidedAfter: webservice.answerMark)
        _ = try await webservice.fetch(next, lease: FetchLease())
        try await requestEnds()
        let first = try await webservice.fetch(episode, lease: lease)
        let second = try await webservice.fetch(next, lease: lease)
        #expect(first.value.title == "Take 1")
        #expect(second.value.title == "Take 2")
        #expect(server.requestCount(for: "/episodes/2") == 2)
    }

    /// Decides a load, lets an identical request end, runs `meanwhile`, and checks
    /// that the load then sends its own request.
    private func expectOwnRequest(
        after meanwhile: () async throws -> Void
    ) async throws {
        let lease = FetchLease(decidedAfter: webservice.answerMark)
        try await requestEnds()
        try await meanwhile()
        let fetched = try await webservice.fetch(episode, lease: lease)
        #expect(fetched.value.title == "Take 2")
        #expect(server.requestCount(for: "/episodes/1") == 2)
    }

    @Test("a load decided after the answer sends its own request")
    func decidedAfterSendsRequest() async throws {
        try await requestEnds()
        let lease = FetchLease(decidedAfter: webservice.answerMark)
        let fetched = try await webservice.fetch(episode, lease: lease)
        #expect(fetched.value.title == "Take 2")
        #expect(server.requestCount(for: "/episodes/1") == 2)
    }

    @Test("an answer invalidated since it was stored is not shared")
    func staleAnswerIsNotShared() async throws {
        try await expectOwnRequest { _ = webservice.invalidate(.resource(episode)) }
    }

    @Test("a failure, or an answer the store does not keep, is not shared", arguments: [500, 200])
    func unstoredOutcomeIsNotShared(status: Int) async throws {
        server.route(
            "/episodes/2",
            answering: [
                MockResponse(
                    statusCode: status,
                    headers: [("Content-Type", "application/json"), ("Cache-Control", "no-store")],
                    body: try JSONEncoder().encode(Episode(id: 2, title: "First"))
                ),
                .json(Episode(id: 2, title: "Second")),
            ]
        )
        let second = Resource<Episode>(url: server.url("/episodes/2"))
        let lease = FetchLease(decidedAfter: webservice.answerMark)
        _ = try? await webservice.fetch(second, lease: FetchLease())
        let fetched = try await webservice.fetch(second, lease: lease)
        #expect(fetched.value.title == "Second")
        #expect(server.requestCount(for: "/episodes/2") == 2)
    }

    @Test("a load decided before more answers than the table holds sends its request")
    func forgottenAnswerSendsRequest() async throws {
        server.route("/others") { _ in .json(Episode(id: 3, title: "Other")) }
        try await expectOwnRequest {
            for number in 0..<300 {
                _ = try await webservice.fetch(
                    Resource<Episode>(url: server.url("/others?page=\(number)")),
                    lease: FetchLease()
                )
            }
        }
    }
}
