import Foundation
import LoadingKit
import LoadingKitTesting

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The 100 KB rows: a `Loading` conformer over `URLSessionTransport` against the
/// transport row — `URLSessionTransport.send` + `JSONDecoder` + main-actor assignment,
/// the same route — paired in shuffled rounds against an in-process loopback server.
/// The 1 KB rows, where a load's fixed cost shows, are ``SideBySideScenario``'s.
@MainActor
struct HTTPScenario {
    let quick: Bool
    let server: LoopbackServer
    let transport = URLSessionTransport()

    init(quick: Bool) throws {
        self.quick = quick
        server = try LoopbackServer()
        let largeBody = try JSONEncoder().encode(BenchItem.list(count: 2000))
        server.route("/large") { _ in
            .init(headers: [("Content-Type", "application/json")], body: largeBody)
        }
    }

    func run() async throws -> [Measurement] {
        let rounds = quick ? 3 : 15
        var rows: [Measurement] = []
        for (path, label, perRound) in [("/large", "100 KB", quick ? 2 : 8)] {
            var interleaved = Interleaved(rounds: rounds)
            let sequential = try await interleaved.compare {
                try await kitSequential(path, count: perRound)
            } baseline: {
                try await baselineSequential(path, count: perRound, tag: "t", load: transportLoad)
            }
            rows.append(
                Measurement(
                    scenario: "http-sequential \(label)",
                    comparison: sequential,
                    budget: 1.03,
                    note:
                        "Loading.load vs the transport row: URLSessionTransport.send + decode + state"
                )
            )
            let concurrent = try await interleaved.compare {
                try await kitConcurrent(path, perWorker: max(1, perRound / 8))
            } baseline: {
                try await baselineConcurrent(
                    path,
                    perWorker: max(1, perRound / 8),
                    tag: "t",
                    load: transportLoad
                )
            }
            rows.append(
                Measurement(
                    scenario: "http-concurrent-16 \(label)",
                    comparison: concurrent,
                    budget: 1.03,
                    note: "16 loads in flight"
                )
            )
        }
        var control = Interleaved(rounds: rounds)
        let aa = try await control.compare {
            try await baselineSequential("/large", count: quick ? 2 : 8)
        } baseline: {
            try await baselineSequential("/large", count: quick ? 2 : 8)
        }
        rows.append(
            Measurement(
                scenario: "A/A control 100 KB",
                comparison: aa,
                budget: 1.03,
                note: "the noise floor"
            )
        )
        return rows
    }

    private func url(_ path: String, _ tag: String) -> URL {
        server.url("\(path)?r=\(tag)")
    }

    /// Distinct URLs for 16 workers, so that nothing is coalesced.
    private func urls(_ path: String, _ side: String, perWorker: Int) -> [[URL]] {
        (0..<16).map { worker in (0..<perWorker).map { url(path, "\(side)\(worker)-\($0)") } }
    }

    private func kitSequential(_ path: String, count: Int) async throws -> Sample {
        let screen = BenchScreen<[BenchItem]>(webservice: Webservice(transport: transport))
        return await Measure.time(operations: count) {
            for index in 0..<count {
                await screen.load(resource: Resource(url: url(path, "k\(index)")), policy: .force)
            }
        }
    }

    /// How a baseline loads one URL.
    typealias Load = @Sendable (URL) async throws -> [BenchItem]

    /// `count` loads one after the other, each assigned to main-actor state; by default
    /// through the hand-written fetch on the transport's session.
    private func baselineSequential(
        _ path: String,
        count: Int,
        tag: String = "b",
        load: Load? = nil
    ) async throws -> Sample {
        let state = BaselineState<[BenchItem]>()
        let load = load ?? handWritten
        return try await Measure.time(operations: count) {
            for index in 0..<count {
                state.isLoading = true
                state.value = try await load(url(path, "\(tag)\(index)"))
                state.isLoading = false
            }
        }
    }

    private func kitConcurrent(_ path: String, perWorker: Int) async throws -> Sample {
        let webservice = Webservice(transport: transport)
        let screens = (0..<16).map { _ in BenchScreen<[BenchItem]>(webservice: webservice) }
        let urls = urls(path, "k", perWorker: perWorker)
        return await Measure.time(operations: 16 * perWorker) {
            let workers = zip(screens, urls).map { screen, list in
                Task { @MainActor in
                    for url in list {
                        await screen.load(resource: Resource(url: url), policy: .force)
                    }
                }
            }
            for worker in workers {
                await worker.value
            }
        }
    }

    /// 16 workers loading one after the other, as ``baselineSequential(_:count:tag:load:)``.
    private func baselineConcurrent(
        _ path: String,
        perWorker: Int,
        tag: String = "b",
        load: Load? = nil
    ) async throws -> Sample {
        let states = (0..<16).map { _ in BaselineState<[BenchItem]>() }
        let load = load ?? handWritten
        let urls = urls(path, tag, perWorker: perWorker)
        return try await Measure.time(operations: 16 * perWorker) {
            let workers = zip(states, urls).map { state, list in
                Task { @MainActor in
                    for url in list {
                        state.isLoading = true
                        state.value = try await load(url)
                        state.isLoading = false
                    }
                }
            }
            for worker in workers {
                try await worker.value
            }
        }
    }

    /// The transport row's load: `URLSessionTransport.send` and a decode.
    private var transportLoad: Load {
        let transport = self.transport
        return { url in
            let (data, _) = try await transport.send(URLRequest(url: url))
            return try JSONDecoder().decode([BenchItem].self, from: data)
        }
    }

    /// The hand-written load on the transport's session.
    private var handWritten: Load {
        let session = transport.session
        return { url in try await HandWritten.fetch(session: session, url: url) }
    }
}
