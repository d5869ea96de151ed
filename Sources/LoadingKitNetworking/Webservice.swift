import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Loads resources through a transport: sends the request, checks the status,
/// parses the body, and reports every failure as a ``WebserviceError``.
///
/// ```swift
/// let webservice = Webservice()  // URLSessionTransport.shared
/// let episode = try await webservice.load(Episode.resource(id: 1))
///
/// let tests = Webservice(transport: mockTransport)
/// ```
///
/// A webservice holds no per-request state on a shared actor: the request and the
/// parse run in the calling task, off the main actor.
public final class Webservice: Sendable {
    /// The transport requests go through.
    public let transport: any Transport

    /// Creates a webservice.
    ///
    /// - Parameter transport: Where requests go; ``URLSessionTransport/shared`` by
    ///   default.
    public init(transport: any Transport = URLSessionTransport.shared) {
        self.transport = transport
    }

    /// A webservice on ``URLSessionTransport/shared``, for apps that need only one.
    public static let shared = Webservice()

    /// Loads `resource`.
    ///
    /// The body is parsed in the calling task; when that task is cancelled the
    /// request is cancelled and the load throws ``WebserviceError/cancelled``.
    ///
    /// - Parameter resource: What to load.
    /// - Returns: The parsed value.
    /// - Throws: ``WebserviceError`` for every failure.
    public func load<A>(_ resource: Resource<A>) async throws(WebserviceError) -> A {
        let url = resource.request.url
        let data: Data
        let response: HTTPURLResponse
        do {
            try Task.checkCancellation()
            (data, response) = try await transport.send(resource.request)
        } catch {
            throw WebserviceError(transportError: error, url: url)
        }
        guard resource.acceptableStatusCodes.contains(response.statusCode) else {
            throw WebserviceError.status(response, body: data)
        }
        do {
            return try resource.parse(data, response)
        } catch {
            throw WebserviceError(parseError: error, url: response.url ?? url)
        }
    }
}
