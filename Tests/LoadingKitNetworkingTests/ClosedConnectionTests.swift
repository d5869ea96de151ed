import Foundation
import LoadingKitNetworking
import LoadingKitTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A request sent on a kept-alive connection that the server closes without answering —
/// as servers and balancers close idle connections — ends at once: FoundationNetworking
/// resends one without a body itself, and cannot rewind one with a body, which on Linux
/// waited for its timeout. The transport sends such a request again on another
/// connection when that is safe, and otherwise says the connection was lost.
@Suite("A kept-alive connection closed unanswered", .timeLimit(.minutes(1)))
struct ClosedConnectionTests {
    /// A method and whether the request carries a body.
    struct Case: Sendable, CustomTestStringConvertible {
        let method: HTTPMethod
        let hasBody: Bool
        var key: String?

        var testDescription: String {
            "\(method.rawValue) \(hasBody ? "with" : "without") a body\(key == nil ? "" : ", keyed")"
        }

        /// Whether the request is sent again: FoundationNetworking resends a bodiless
        /// one, the transport an idempotent or keyed one.
        var isSentAgain: Bool { !hasBody || method.isIdempotent || key != nil }
    }

    static let cases: [Case] =
        [HTTPMethod.put, .post, .patch, .delete].flatMap { method in
            [Case(method: method, hasBody: false), Case(method: method, hasBody: true)]
        } + [Case(method: .get, hasBody: false), Case(method: .post, hasBody: true, key: "k-1")]

    let server: LoopbackServer
    /// A transport of the test's own, so that its one kept-alive connection is known.
    let transport = URLSessionTransport()

    /// A server that answers the first request of each connection and closes the
    /// connection, unanswered, on the next one.
    init() throws {
        server = try LoopbackServer()
        for method in [HTTPMethod.get, .put, .post, .patch, .delete] {
            server.route("/item", method: method) { request in
                request.numberOnConnection > 1
                    ? .closedUnanswered : .json(Episode(id: 1, title: "Pilot"))
            }
        }
    }

    /// The request of `test` to `/item`, with a timeout long enough that a request that
    /// waits for it is told apart from one that ends at once.
    private func request(for test: Case) -> URLRequest {
        var request = URLRequest(url: server.url("/item"))
        request.httpMethod = test.method.rawValue
        request.timeoutInterval = 20
        if test.hasBody {
            request.httpBody = Data(#"{"id":1,"title":"Pilot"}"#.utf8)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        if let key = test.key {
            request.setValue(key, forHTTPHeaderField: "Idempotency-Key")
        }
        return request
    }

    /// Opens the transport's connection with an answered `GET`, kept alive.
    private func openConnection() async throws {
        _ = try await transport.send(URLRequest(url: server.url("/item")))
        #expect(server.connectionCount == 1)
    }

    /// How many requests of `test`'s method the server read, the opening `GET` aside.
    private func arrivals(of test: Case) -> Int {
        server.requests.count { $0.method == test.method.rawValue } - (test.method == .get ? 1 : 0)
    }

    @Test(
        "through the transport, it is sent again when safe, or ends as a lost connection",
        arguments: cases
    )
    func throughTransport(_ test: Case) async throws {
        try await openConnection()

        do {
            let (_, response) = try await transport.send(request(for: test))
            #expect(test.isSentAgain)
            #expect(response.statusCode == 200)
            #expect(arrivals(of: test) == 2)
        } catch {
            #expect(!test.isSentAgain)
            #expect((error as? URLError)?.code == .networkConnectionLost)
            #expect(arrivals(of: test) == 1)
        }
    }

    @Test(
        "through a webservice, a load ends at once with its answer or a lost connection",
        arguments: cases
    )
    func throughWebservice(_ test: Case) async throws {
        let webservice = Webservice(transport: transport)
        try await openConnection()
        let resource = Resource<Episode>(request: request(for: test)) { data, _ in
            try JSONDecoder().decode(Episode.self, from: data)
        }

        do throws(WebserviceError) {
            let episode = try await webservice.load(resource)
            #expect(test.isSentAgain)
            #expect(episode.title == "Pilot")
        } catch .transport(let failure) {
            #expect(!test.isSentAgain)
            #expect(failure.code == URLError.Code.networkConnectionLost)
        } catch {
            Issue.record("expected an answer or a lost connection, got \(error)")
        }
    }
}
