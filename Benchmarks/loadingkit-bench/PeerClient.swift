import Foundation
import LoadingKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The client users would otherwise pick, written here as a second baseline: an actor
/// that takes kean/Get 2.2.1's route for a `GET` of JSON, step by step, so that it costs
/// what that library costs. No dependency: the route is what is measured, not another
/// package.
///
/// The route, per request: the request value turned into a `URLRequest` in an `async`
/// step (the URL through `URLComponents`, the header fields set whole, the method, an
/// `Accept: application/json` unless the session or the request has one); an `async`
/// hook of a delegate existential before sending; a data task whose handler object is
/// kept in a dictionary keyed by the task under an `NSLock`; a session delegate on a
/// serial `OperationQueue` that allows the response, appends each part of the body to
/// the handler and, at the end, builds a response of the task, its data and its
/// metrics; the status validated by the delegate; the decode in a detached task; the
/// response mapped to the value. The session is ephemeral and has no `URLCache`, as
/// Get was measured here.
///
/// ```swift
/// let peer = PeerClient()
/// let items = try await peer.value([BenchItem].self, at: url)
/// ```
actor PeerClient {
    private let session: URLSession
    private let loader = PeerDataLoader()
    private let delegate: any PeerClientDelegate = PeerDefaultDelegate()
    private let decoder = JSONDecoder()

    init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        session = URLSession(configuration: configuration, delegate: loader, delegateQueue: queue)
    }

    deinit {
        session.invalidateAndCancel()
    }

    /// The value at `url`, decoded from JSON.
    ///
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - url: Where it is.
    /// - Returns: The decoded value.
    func value<T: Decodable & Sendable>(_ type: T.Type, at url: URL) async throws -> T {
        try await send(PeerRequest<T>(url: url)).value
    }

    /// Sends `request` and decodes its body.
    private func send<T: Decodable & Sendable>(
        _ request: PeerRequest<T>
    ) async throws -> PeerResponse<T> {
        let response = try await data(for: request)
        let decoder = self.decoder
        let data = response.data
        let value = try await Task.detached { try decoder.decode(T.self, from: data) }.value
        return response.map { _ in value }
    }

    /// Sends `request` and returns its body, validated.
    private func data<T>(for request: PeerRequest<T>) async throws -> PeerResponse<Data> {
        let urlRequest = try await makeURLRequest(for: request)
        var sent = urlRequest
        try await delegate.client(self, willSend: &sent)
        let task = session.dataTask(with: sent)
        let response = try await loader.start(task)
        try delegate.client(self, validate: response.response, data: response.data)
        return response
    }

    /// The `URLRequest` of `request`.
    private func makeURLRequest<T>(for request: PeerRequest<T>) async throws -> URLRequest {
        guard var components = URLComponents(url: request.url, resolvingAgainstBaseURL: false)
        else { throw URLError(.badURL) }
        if !request.query.isEmpty {
            components.queryItems = request.query
        }
        guard let url = components.url else { throw URLError(.badURL) }
        var urlRequest = URLRequest(url: url)
        urlRequest.allHTTPHeaderFields = request.headers
        urlRequest.httpMethod = request.method
        if urlRequest.value(forHTTPHeaderField: "Accept") == nil,
            session.configuration.httpAdditionalHeaders?["Accept"] == nil
        {
            urlRequest.setValue("application/json", forHTTPHeaderField: "Accept")
        }
        return urlRequest
    }
}

/// A request in the peer's terms: a URL, a method, query items and header fields.
struct PeerRequest<Value>: Sendable {
    var url: URL
    var method = "GET"
    var query: [URLQueryItem] = []
    var headers: [String: String]?
}

/// What the peer answers: the value, the body, the response and its task. Unchecked:
/// the task and its metrics are read-only here once the response is made.
struct PeerResponse<Value>: @unchecked Sendable {
    let value: Value
    let data: Data
    let response: HTTPURLResponse
    let task: URLSessionTask
    let metrics: URLSessionTaskMetrics?

    /// The same response with `transform`'s value.
    func map<Other>(_ transform: (Value) throws -> Other) rethrows -> PeerResponse<Other> {
        PeerResponse<Other>(
            value: try transform(value),
            data: data,
            response: response,
            task: task,
            metrics: metrics
        )
    }
}

/// The peer's hooks, each with a default, called on every request.
protocol PeerClientDelegate: Sendable {
    /// Changes the request before it is sent.
    func client(_ client: PeerClient, willSend request: inout URLRequest) async throws
    /// Throws when the response is not acceptable.
    func client(_ client: PeerClient, validate response: HTTPURLResponse, data: Data) throws
}

/// The hooks' defaults: nothing before sending, a 2xx status required.
struct PeerDefaultDelegate: PeerClientDelegate {
    func client(_ client: PeerClient, willSend request: inout URLRequest) async throws {}

    func client(_ client: PeerClient, validate response: HTTPURLResponse, data: Data) throws {
        guard (200..<300).contains(response.statusCode) else {
            throw URLError(.badServerResponse)
        }
    }
}
