import Foundation
import LoadingKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Every route that loads the 1 KB list, measured in the same rounds: each round runs
/// every route once, in a shuffled order, so that whatever the machine does in a round
/// — threads asleep or awake, a busy neighbour — falls on all of them alike. Each route
/// has its own session and its own workers' screens or state, and the server runs in
/// another process, so the process's CPU time is the client's alone.
///
/// ```swift
/// let rounds = SideBySide(routes: SideBySide.kitRoutes(), rounds: 30, perRound: 200)
/// let samples = try await rounds.measure(at: server.url, inFlight: 16)
/// ```
@MainActor
struct SideBySide {
    /// One way of loading a URL into state on the main actor.
    struct Route {
        /// The route's name in the rows, such as `hand`.
        let name: String
        /// Makes one worker: its own screen or state, loading one URL at a time.
        let worker: @MainActor () -> @MainActor (URL) async throws -> Void
    }

    /// The routes, measured in a new order each round.
    let routes: [Route]
    /// How many rounds.
    let rounds: Int
    /// How many loads each route makes in a round.
    let perRound: Int

    /// CPU and wall time per load of every route, one sample per round.
    ///
    /// - Parameters:
    ///   - url: The 1 KB list; each load adds a query that no other load uses.
    ///   - inFlight: How many loads each route has in flight at once, in as many
    ///     workers.
    /// - Returns: Each route's samples by name, in the order of the rounds.
    func measure(at url: URL, inFlight: Int) async throws -> [String: [Sample]] {
        // Samples are kept by name: two routes named alike would mix theirs.
        precondition(Set(routes.map(\.name)).count == routes.count, "route names repeat")
        let workers = routes.map { route in (0..<inFlight).map { _ in route.worker() } }
        var samples: [String: [Sample]] = [:]
        var generator = SystemRandomNumberGenerator()
        // One round unmeasured first: connections opened, code paths warm.
        for round in -1..<rounds {
            for index in routes.indices.shuffled(using: &generator) {
                let name = routes[index].name
                let urls = (0..<perRound).map { load in
                    url.appending(queryItems: [
                        .init(name: "r", value: "\(name)-\(inFlight)-\(round)-\(load)")
                    ])
                }
                let sample = try await Self.time(urls, in: workers[index])
                if round >= 0 {
                    samples[name, default: []].append(sample)
                }
            }
        }
        return samples
    }

    /// Loads `urls` in `workers`, each taking the next one after its last.
    private static func time(
        _ urls: [URL],
        in workers: [@MainActor (URL) async throws -> Void]
    ) async throws -> Sample {
        try await Measure.time(operations: urls.count) {
            let tasks = workers.enumerated().map { index, load in
                let share = stride(from: index, to: urls.count, by: workers.count).map { urls[$0] }
                return Task { @MainActor in
                    for url in share {
                        try await load(url)
                    }
                }
            }
            for task in tasks {
                try await task.value
            }
        }
    }
}

extension SideBySide {
    /// The kit's routes and its baselines, in the order of the rows: a completion-handler
    /// data task written by hand (twice, the second as the A/A control), the kit's
    /// transport, ``PeerClient``, `Webservice.load` and a `Loading` screen.
    static func kitRoutes() -> [Route] {
        [
            handWritten(named: "hand"),
            handWritten(named: "hand again"),
            assigning(named: "transport") {
                let transport = URLSessionTransport()
                return { url in
                    let (data, _) = try await transport.send(URLRequest(url: url))
                    return try JSONDecoder().decode([BenchItem].self, from: data)
                }
            },
            assigning(named: "PeerClient") {
                let peer = PeerClient()
                return { url in try await peer.value([BenchItem].self, at: url) }
            },
            assigning(named: "Webservice.load") {
                let webservice = Webservice(transport: URLSessionTransport())
                return { url in try await webservice.load(Resource<[BenchItem]>(url: url)) }
            },
            screen(),
        ]
    }

    /// A route whose workers share `makeLoad()`'s client and assign each value to their
    /// own main-actor state, as a screen written by hand does.
    ///
    /// - Parameters:
    ///   - name: The route's name.
    ///   - makeLoad: Makes the client, once, and returns how it loads a URL.
    /// - Returns: The route.
    static func assigning(
        named name: String,
        _ makeLoad: () -> @Sendable (URL) async throws -> [BenchItem]
    ) -> Route {
        let load = makeLoad()
        return Route(name: name) {
            let state = BaselineState<[BenchItem]>()
            return { url in
                state.isLoading = true
                state.value = try await load(url)
                state.isLoading = false
            }
        }
    }

    /// A completion-handler data task and a decode, on an ephemeral session of its own
    /// with no `URLCache`, as the kit's transport has (and Get was measured without one).
    private static func handWritten(named name: String) -> Route {
        assigning(named: name) {
            let configuration = URLSessionConfiguration.ephemeral
            configuration.urlCache = nil
            let session = URLSession(configuration: configuration)
            return { url in try await HandWritten.fetch(session: session, url: url) }
        }
    }

    /// A `Loading` screen per worker, loading with `load(resource:policy: .force)`; a
    /// load that does not configure the screen fails the route, as the others throw.
    private static func screen() -> Route {
        let webservice = Webservice(transport: URLSessionTransport())
        return Route(name: "screen") {
            let screen = BenchScreen<[BenchItem]>(webservice: webservice)
            return { url in
                let configured = screen.configured
                await screen.load(resource: Resource<[BenchItem]>(url: url), policy: .force)
                guard screen.configured == configured + 1 else { throw NotConfigured(url: url) }
            }
        }
    }

    /// A screen's load that ended without its value: failed, skipped or superseded.
    struct NotConfigured: Error, CustomStringConvertible {
        let url: URL
        var description: String { "a screen's load of \(url) did not configure it" }
    }
}
