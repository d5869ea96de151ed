import Foundation
import LoadingKitNetworking

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A transport that answers from a script, for tests.
///
/// Responses are queued per route (method plus path, path and query, or absolute
/// URL) and consumed in order. Every request is recorded; one that nothing is
/// scripted for fails with ``UnexpectedRequest``.
///
/// ```swift
/// let mock = MockTransport()
/// mock.respond(to: "/episodes/1", with: .json(Episode(id: 1, title: "Pilot")))
/// mock.fail("/episodes/2", with: URLError(.notConnectedToInternet))
///
/// let webservice = Webservice(transport: mock)
/// let episode = try await webservice.load(Episode.resource(id: 1))
/// try mock.verifyAllConsumed()
/// ```
public final class MockTransport: StreamingTransport {
    private enum Outcome: Sendable {
        case response(MockResponse)
        case failure(any Error)
    }

    private struct Step: Sendable {
        let outcome: Outcome
        let gate: Gate?
    }

    private struct State {
        var script: [Route: [Step]] = [:]
        var routeOrder: [Route] = []
        var requests: [URLRequest] = []
    }

    private let state = Locked(State())
    private let received = CounterSignal()

    /// Creates a transport with an empty script.
    public init() {}

    // MARK: - Scripting

    /// Queues `response` for the next request to `route`.
    ///
    /// - Parameters:
    ///   - route: `"/path"`, `"/path?query"` or an absolute URL string.
    ///   - method: The request method to match; `GET` by default.
    ///   - response: What the request gets.
    ///   - gate: When given, the response is held until the gate opens.
    public func respond(
        to route: String,
        method: HTTPMethod = .get,
        with response: MockResponse,
        after gate: Gate? = nil
    ) {
        enqueue(Step(outcome: .response(response), gate: gate), for: Route(method, route))
    }

    /// Queues a failure for the next request to `route`: the transport throws `error`.
    ///
    /// - Parameters:
    ///   - route: `"/path"`, `"/path?query"` or an absolute URL string.
    ///   - method: The request method to match; `GET` by default.
    ///   - error: What the transport throws, such as `URLError(.timedOut)`.
    ///   - gate: When given, the failure is held until the gate opens.
    public func fail(
        _ route: String,
        method: HTTPMethod = .get,
        with error: any Error,
        after gate: Gate? = nil
    ) {
        enqueue(Step(outcome: .failure(error), gate: gate), for: Route(method, route))
    }

    private func enqueue(_ step: Step, for route: Route) {
        state.withLock { state in
            if state.script[route] == nil {
                state.routeOrder.append(route)
            }
            state.script[route, default: []].append(step)
        }
    }

    // MARK: - Inspection

    /// Every request received, in order.
    public var requests: [URLRequest] { state.withLock { $0.requests } }

    /// How many requests matched `route` and `method`.
    ///
    /// - Parameters:
    ///   - route: `"/path"`, `"/path?query"` or an absolute URL string.
    ///   - method: The request method to match; `GET` by default.
    /// - Returns: The number of requests so far, answered or not.
    public func requestCount(for route: String, method: HTTPMethod = .get) -> Int {
        let route = Route(method, route)
        return requests.count { route.matches($0) }
    }

    /// The scripted responses no request has consumed, described as `METHOD route`.
    public var unconsumed: [String] {
        state.withLock { state in
            state.routeOrder.flatMap { route in
                Array(repeating: route.description, count: state.script[route]?.count ?? 0)
            }
        }
    }

    /// Throws ``Unconsumed`` when a scripted response was never requested.
    ///
    /// - Throws: ``Unconsumed``, naming the routes of the responses left.
    public func verifyAllConsumed() throws(Unconsumed) {
        let remaining = unconsumed
        guard remaining.isEmpty else { throw Unconsumed(routes: remaining) }
    }

    /// Returns once `count` requests in all have been received — or once the calling
    /// task is cancelled, as by a test's time limit.
    ///
    /// - Parameter count: How many requests, counted from the transport's creation.
    public func waitForRequests(_ count: Int) async {
        await received.wait(for: count)
    }

    // MARK: - Transport

    /// Answers `request` with the next step scripted for its route.
    ///
    /// - Parameter request: The request, recorded in ``requests``.
    /// - Returns: The scripted response's body and response.
    /// - Throws: The scripted error, ``UnexpectedRequest`` when nothing is scripted,
    ///   or `CancellationError` when the task is cancelled.
    public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let (response, http) = try await answer(request)
        if response.streamedBody != nil {
            // A whole response is wanted: a streamed body cannot be told apart from a
            // server that never ends it.
            throw URLError(.timedOut)
        }
        return (response.body, http)
    }

    /// Answers `request` with the next step scripted for its route, its body streamed:
    /// as the test writes it for a ``MockResponse/streamed(_:status:headers:)``
    /// response, else in one chunk.
    ///
    /// - Parameter request: The request, recorded in ``requests``.
    /// - Returns: The body as the test writes it, and the response.
    /// - Throws: The scripted error, ``UnexpectedRequest`` when nothing is scripted,
    ///   or `CancellationError` when the task is cancelled.
    public func stream(_ request: URLRequest) async throws -> (ResponseBody, HTTPURLResponse) {
        let (response, http) = try await answer(request)
        guard let streamed = response.streamedBody else {
            let (body, continuation) = ResponseBody.makeBody {}
            continuation.yield(response.body)
            continuation.finish()
            return (body, http)
        }
        let (body, continuation) = ResponseBody.makeBody { streamed.clientLeft() }
        streamed.open()
        streamed.read(into: continuation)
        return (body, http)
    }

    /// The scripted response to `request`, and the HTTP response it makes.
    private func answer(_ request: URLRequest) async throws -> (MockResponse, HTTPURLResponse) {
        let step = state.withLock { state in
            state.requests.append(request)
            let route = state.routeOrder.first { route in
                route.matches(request) && state.script[route]?.isEmpty == false
            }
            return route.map { state.script[$0]!.removeFirst() }
        }
        received.increment()
        guard let step else { throw UnexpectedRequest(request: request) }
        try await step.gate?.pass()
        if step.gate?.honorsCancellation ?? true {
            try Task.checkCancellation()
        }
        switch step.outcome {
        case .failure(let error):
            throw error
        case .response(let response):
            if let rawBytes = response.rawBytes {
                throw URLError(rawBytes.isEmpty ? .networkConnectionLost : .badServerResponse)
            }
            if let count = response.truncatedAfterBodyBytes, count < response.body.count {
                throw URLError(.networkConnectionLost)
            }
            let url = request.url ?? URL(string: "mock:")!
            guard
                let http = HTTPURLResponse(
                    url: url,
                    statusCode: response.statusCode,
                    httpVersion: "HTTP/1.1",
                    headerFields: response.headers.joined
                )
            else { throw URLError(.badServerResponse) }
            return (response, http)
        }
    }
}

// MARK: - Errors

extension MockTransport {
    /// A request arrived that nothing was scripted for.
    public struct UnexpectedRequest: Error, CustomStringConvertible {
        /// The request.
        public let request: URLRequest

        /// Names the request and how to script it.
        public var description: String {
            let method = request.httpMethod ?? "GET"
            let url = request.url?.absoluteString ?? "(no URL)"
            return "MockTransport: unexpected \(method) \(url); script it with respond(to:with:)"
        }
    }

    /// Scripted responses were left unconsumed.
    public struct Unconsumed: Error, CustomStringConvertible {
        /// The routes with responses left, one entry per response.
        public let routes: [String]

        /// Lists the routes.
        public var description: String {
            "MockTransport: scripted but never requested: " + routes.joined(separator: ", ")
        }
    }
}
