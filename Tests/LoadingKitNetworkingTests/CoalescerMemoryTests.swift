import Foundation
import Testing

@testable import LoadingKitNetworking

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What the coalescer keeps for a request is gone once the request has ended, however
/// its callers left it.
@Suite("What the coalescer keeps per request", .timeLimit(.minutes(5)))
struct CoalescerMemoryTests {
    @Test("200,000 cancelled leaders leave nothing behind")
    func cancelledLeadersLeaveNothing() async throws {
        let transport = LeaseCancellingTransport()
        let webservice = Webservice(
            transport: transport,
            configuration: .init(),
            coalescer: Coalescer()
        )
        let resource = Resource<Episode>(url: URL(string: "https://api.example.com/episodes/1")!)
        for _ in 0..<200_000 {
            let lease = FetchLease()
            transport.lease.withLock { $0 = lease }
            _ = try? await webservice.fetch(resource, lease: lease)
        }
        // Each leader left its request as it was sent, and never waited for it.
        #expect(transport.sent.withLock { $0 } == 200_000)
        #expect(webservice.coalescer.kept == .init(flights: 0, delivered: 0, departed: 0))
    }
}

extension Coalescer {
    /// How many flights, delivered outcomes and departed callers the coalescer keeps.
    struct Kept: Equatable {
        let flights: Int
        let delivered: Int
        let departed: Int
    }

    var kept: Kept {
        state.withLock { state in
            Kept(
                flights: state.flights.count,
                delivered: state.delivered.count,
                departed: state.departed.count
            )
        }
    }
}

/// A transport that cancels the lease of the load it serves as the request is sent,
/// and answers with an episode.
private final class LeaseCancellingTransport: Transport {
    let lease = Locked<FetchLease?>(nil)
    let sent = Locked(0)

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        sent.withLock { $0 += 1 }
        lease.withLock { $0 }?.cancel()
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
