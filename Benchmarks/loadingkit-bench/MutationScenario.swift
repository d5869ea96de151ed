import Foundation
import LoadingKit
import LoadingKitTesting

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What sending a mutation costs: a screen's `send` of a `PATCH` whose answer is
/// decoded and kept, against the same `PATCH` sent by hand through the same transport's
/// `send` — the route that streams the size limit — with a decode and the answer
/// assigned to main-actor state, against one loopback server.
@MainActor
struct MutationScenario {
    let quick: Bool
    private let server: LoopbackServer
    private let transport = URLSessionTransport()

    init(quick: Bool) throws {
        self.quick = quick
        server = try LoopbackServer()
        server.route("/items/1", method: .patch) { request in
            .init(headers: [("Content-Type", "application/json")], body: request.body)
        }
    }

    func run() async throws -> [Row] {
        let count = quick ? 10 : 40
        let item = BenchItem(id: 1, title: String(repeating: "x", count: 200))
        let url = server.url("/items/1")
        let screen = BenchScreen<BenchItem>(webservice: Webservice(transport: transport))
        let state = BaselineState<BenchItem>()
        let transport = self.transport
        var interleaved = Interleaved(rounds: quick ? 3 : 21)
        let comparison = try await interleaved.compare {
            try await Measure.time(operations: count) {
                for _ in 0..<count {
                    let rename = try Resource<BenchItem>(url: url, method: .patch, body: item)
                    state.value = try await screen.send(Mutation(rename))
                }
            }
        } baseline: {
            try await Measure.time(operations: count) {
                for _ in 0..<count {
                    state.isLoading = true
                    state.value = try await Self.patch(item, at: url, through: transport)
                    state.isLoading = false
                }
            }
        }
        return [
            Row(
                "mutation round trip",
                comparison,
                budget: 1.05,
                note:
                    "a screen's send of a PATCH vs the same PATCH through URLSessionTransport.send"
            )
        ]
    }

    /// The `PATCH` by hand — with the `Accept` and `Content-Type` fields the kit's JSON
    /// resource sends — the body encoded, sent through `transport`, and the answer
    /// decoded.
    nonisolated private static func patch(
        _ item: BenchItem,
        at url: URL,
        through transport: URLSessionTransport
    ) async throws -> BenchItem {
        var request = URLRequest(url: url)
        request.httpMethod = "PATCH"
        // The fields the kit's JSON resource sends: the same request, byte for byte.
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONEncoder().encode(item)
        let (data, response) = try await transport.send(request)
        guard response.statusCode == 200 else { throw URLError(.badServerResponse) }
        return try JSONDecoder().decode(BenchItem.self, from: data)
    }
}
