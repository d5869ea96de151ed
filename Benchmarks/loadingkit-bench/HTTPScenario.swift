import Foundation
import LoadingKit
import LoadingKitTesting

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A `Loading` conformer and `Webservice.load` over `URLSessionTransport` against the
/// transport row — `URLSessionTransport.send` + `JSONDecoder` + main-actor assignment,
/// the same route — and that row against a hand-written completion-handler data task
/// on the transport's plain `session` (an ordinary delegate queue, as code written by
/// hand has), against the same loopback server.
@MainActor
struct HTTPScenario {
    let quick: Bool
    let server: LoopbackServer
    let transport = URLSessionTransport()

    init(quick: Bool) throws {
        self.quick = quick
        server = try LoopbackServer()
        let small = (0..<20).map { BenchItem(id: $0, title: "Item number \($0) with some text") }
        let large = (0..<2000).map { BenchItem(id: $0, title: "Item number \($0) with some text") }
        let smallBody = try JSONEncoder().encode(small)
        let largeBody = try JSONEncoder().encode(large)
        server.route("/small") { _ in
            .init(headers: [("Content-Type", "application/json")], body: smallBody)
        }
        server.route("/large") { _ in
            .init(headers: [("Content-Type", "application/json")], body: largeBody)
        }
    }

    func run() async throws -> [Measurement] {
        let rounds = quick ? 3 : 15
        var rows: [Measurement] = []
        for (path, label, perRound) in [
            ("/small", "1 KB", quick ? 10 : 40), ("/large", "100 KB", quick ? 2 : 8),
        ] {
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
        rows += try await transportAlone(rounds: rounds)
        rows += try await webserviceAlone(rounds: rounds)
        rows += try await againstPeer(rounds: rounds)
        var control = Interleaved(rounds: rounds)
        let aa = try await control.compare {
            try await baselineSequential("/small", count: quick ? 10 : 40)
        } baseline: {
            try await baselineSequential("/small", count: quick ? 10 : 40)
        }
        rows.append(
            Measurement(
                scenario: "A/A control (baseline vs baseline)",
                comparison: aa,
                budget: 1.03,
                note: "the noise floor"
            )
        )
        return rows
    }

    /// The transport row against the hand-written data task, 1 KB: what the route with
    /// the streamed size limit (a session delegate) costs.
    private func transportAlone(rounds: Int) async throws -> [Measurement] {
        try await rows(
            named: ("transport sequential 1 KB", "transport concurrent-16 1 KB"),
            kit: handWrittenSide(tag: "t", load: transportLoad),
            baseline: handWrittenSide(tag: "b"),
            rounds: rounds,
            budget: 1.03,
            note: "URLSessionTransport.send + decode vs a completion-handler data task + decode"
        )
    }

    /// `Webservice.load` called where the transport row calls its send, 1 KB: the kit's
    /// networking without a loader.
    private func webserviceAlone(rounds: Int) async throws -> [Measurement] {
        let webservice = Webservice(transport: transport)
        let load: Load = { url in try await webservice.load(Resource<[BenchItem]>(url: url)) }
        return try await rows(
            named: ("webservice-load sequential 1 KB", "webservice-load concurrent-16 1 KB"),
            kit: handWrittenSide(tag: "w", load: load),
            baseline: handWrittenSide(tag: "t", load: transportLoad),
            rounds: rounds,
            budget: 1.03,
            note: "Webservice.load vs the transport row, both assigned to main-actor state"
        )
    }

    /// The kit against ``PeerClient``, the design users would otherwise pick, 1 KB.
    private func againstPeer(rounds: Int) async throws -> [Measurement] {
        let peer = PeerClient()
        let load: Load = { url in try await peer.value([BenchItem].self, at: url) }
        let loader = Side {
            try await kitSequential("/small", count: $0)
        } concurrent: {
            try await kitConcurrent("/small", perWorker: $0)
        }
        let peerSide = handWrittenSide(tag: "p", load: load)
        let calibration = try await rows(
            named: ("peer-route sequential 1 KB", "peer-route concurrent-16 1 KB"),
            kit: peerSide,
            baseline: handWrittenSide(tag: "h"),
            rounds: rounds,
            budget: 1.08,
            note: "PeerClient vs hand-written: kean/Get 2.2.1 itself measured 1.08 / 1.09 here"
        )
        return try await calibration
            + rows(
                named: ("peer http-sequential 1 KB", "peer http-concurrent-16 1 KB"),
                kit: loader,
                baseline: peerSide,
                rounds: rounds,
                budget: 1.0,
                note: "Loading.load vs PeerClient, an actor client on kean/Get 2.2.1's route"
            )
    }

    /// One side of a pair of 1 KB rows.
    struct Side {
        /// Makes the given number of loads one after the other.
        let sequential: (Int) async throws -> Sample
        /// Makes the given number of loads in each of 16 workers.
        let concurrent: (Int) async throws -> Sample
    }

    /// The loads of ``baselineSequential(_:count:tag:load:)`` and
    /// ``baselineConcurrent(_:perWorker:tag:load:)`` with `load`, the hand-written one by
    /// default, on URLs tagged `tag`.
    private func handWrittenSide(tag: String, load: Load? = nil) -> Side {
        Side {
            try await baselineSequential("/small", count: $0, tag: tag, load: load)
        } concurrent: {
            try await baselineConcurrent("/small", perWorker: $0, tag: tag, load: load)
        }
    }

    /// Two rows of 1 KB loads, `kit` against `baseline`: one load in flight, then 16.
    private func rows(
        named names: (sequential: String, concurrent: String),
        kit: Side,
        baseline: Side,
        rounds: Int,
        budget: Double,
        note: String
    ) async throws -> [Measurement] {
        let count = quick ? 10 : 40
        var interleaved = Interleaved(rounds: rounds)
        let sequential = try await interleaved.compare {
            try await kit.sequential(count)
        } baseline: {
            try await baseline.sequential(count)
        }
        let concurrent = try await interleaved.compare {
            try await kit.concurrent(max(1, count / 8))
        } baseline: {
            try await baseline.concurrent(max(1, count / 8))
        }
        return [
            Measurement(
                scenario: names.sequential,
                comparison: sequential,
                budget: budget,
                note: note
            ),
            Measurement(
                scenario: names.concurrent,
                comparison: concurrent,
                budget: budget,
                note: note
            ),
        ]
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
        return { url in try await Self.fetch(session: session, url: url) }
    }

    /// The hand-written load: a completion-handler data task and a decode.
    nonisolated static func fetch<T: Decodable & Sendable>(session: URLSession, url: URL)
        async throws -> T
    {
        let data: Data = try await withCheckedThrowingContinuation { continuation in
            session.dataTask(with: URLRequest(url: url)) { data, _, error in
                if let data {
                    continuation.resume(returning: data)
                } else {
                    continuation.resume(throwing: error ?? URLError(.badServerResponse))
                }
            }.resume()
        }
        return try JSONDecoder().decode(T.self, from: data)
    }
}
