import Foundation

/// The 1 KB rows: every route in the same rounds, at one load in flight and at 16,
/// against a server in another process — the list served by this executable's child
/// by default, or by any server given its URL.
///
/// ```swift
/// let rows = try await SideBySideScenario(quick: false, server: nil).run()
/// ```
@MainActor
struct SideBySideScenario {
    /// One row: a route against the route it is judged against, in the same rounds.
    struct Pair {
        let kit: String
        let baseline: String
        let budget: Double
        let note: String
    }

    /// The kit's rows: each route against what it adds to, and a screen against the
    /// peer.
    static let kitPairs = [
        Pair(kit: "hand again", baseline: "hand", budget: 1.03, note: "A/A control"),
        Pair(kit: "transport", baseline: "hand", budget: 1.03, note: "the kit's transport"),
        Pair(kit: "PeerClient", baseline: "hand", budget: 1.08, note: "kean/Get 2.2.1's route"),
        Pair(kit: "Webservice.load", baseline: "hand", budget: 1.08, note: "the kit, no screen"),
        Pair(kit: "screen", baseline: "hand", budget: 1.08, note: "a Loading screen's load"),
        Pair(kit: "screen", baseline: "transport", budget: 1.03, note: "the kit's own cost"),
        Pair(kit: "screen", baseline: "PeerClient", budget: 1.0, note: "ahead of the peer"),
    ]

    let quick: Bool
    /// The list's URL on a server already running, or `nil` to start one.
    let server: URL?
    /// The routes measured, each with the name the pairs use.
    var routes = SideBySide.kitRoutes()
    /// The rows reported at each concurrency.
    var pairs = kitPairs

    /// Measures every route at one load in flight, then at 16.
    ///
    /// - Returns: One measurement per pair and concurrency.
    func run() async throws -> [Measurement] {
        let child = server == nil ? try ServerProcess() : nil
        defer { child?.stop() }
        guard let url = server ?? child?.url else { throw ServerProcess.NotStarted() }
        let rounds = SideBySide(routes: routes, rounds: quick ? 3 : 30, perRound: quick ? 16 : 200)
        var rows: [Measurement] = []
        for inFlight in [1, 16] {
            let samples = try await rounds.measure(at: url, inFlight: inFlight)
            rows += pairs.map { pair in
                Measurement(
                    scenario: "1 KB ×\(inFlight) \(pair.kit) / \(pair.baseline)",
                    comparison: Comparison(
                        kit: samples[pair.kit] ?? [],
                        baseline: samples[pair.baseline] ?? []
                    ),
                    budget: pair.budget,
                    note: pair.note
                )
            }
        }
        return rows
    }
}
