import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Why a load through a ``Webservice`` failed: the one error type of the networking
/// layer.
///
/// ```swift
/// do {
///     let episode = try await webservice.load(Episode.resource(id: 1))
/// } catch .badStatus(let failure) where failure.statusCode == 404 {
///     showNotFound()
/// } catch {
///     show(error.description)
/// }
/// ```
public enum WebserviceError: Error, Sendable, Equatable {
    /// The request did not complete: no connection, a timeout, a dropped connection.
    case transport(TransportFailure)
    /// The server answered with a status the resource does not accept.
    case badStatus(StatusFailure)
    /// The body could not be turned into the value.
    case decoding(DecodingFailure)
    /// The load was cancelled before it finished.
    case cancelled
    /// The body was larger than the transport's limit, in bytes; it was not buffered.
    case responseTooLarge(limit: Int)
    /// The server answered `304 Not Modified` but no earlier value of the resource
    /// is known to stand for it.
    case notModifiedWithoutCache(url: URL?)

    /// Whether the load was cancelled, rather than failed.
    public var isCancellation: Bool { self == .cancelled }
}

// MARK: - Failures

extension WebserviceError {
    /// A request that did not complete.
    ///
    /// ```swift
    /// if case .transport(let failure) = error, failure.code == .timedOut { … }
    /// ```
    public struct TransportFailure: Sendable, Equatable {
        /// The URL error code, when the failure came from the URL loading system.
        public let code: URLError.Code?
        /// A readable account of the failure.
        public let message: String
        /// The URL that was requested.
        public let url: URL?
        /// The error the transport threw.
        public let underlying: any Error

        /// Creates a transport failure from the error a transport threw.
        public init(underlying: any Error, url: URL?) {
            let urlError = underlying as? URLError
            self.code = urlError?.code
            self.message = urlError?.localizedDescription ?? String(describing: underlying)
            self.url = url
            self.underlying = underlying
        }

        /// Two failures are equal when their code, message and URL are.
        public static func == (lhs: Self, rhs: Self) -> Bool {
            lhs.code == rhs.code && lhs.message == rhs.message && lhs.url == rhs.url
        }
    }

    /// A response whose status the resource does not accept.
    ///
    /// ```swift
    /// if case .badStatus(let failure) = error { print(failure.statusCode, failure.bodyText ?? "") }
    /// ```
    public struct StatusFailure: Sendable, Equatable {
        /// The response's status code.
        public let statusCode: Int
        /// The response's header fields.
        public let headers: [String: String]
        /// The response body, as received.
        public let body: Data
        /// The URL that answered.
        public let url: URL?

        /// Creates a status failure.
        public init(statusCode: Int, headers: [String: String], body: Data, url: URL?) {
            self.statusCode = statusCode
            self.headers = headers
            self.body = body
            self.url = url
        }

        /// The value of the header field `name`, compared without case.
        public func header(_ name: String) -> String? {
            headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
        }

        /// The body decoded as UTF-8, when it is text.
        public var bodyText: String? { String(data: body, encoding: .utf8) }
    }

    /// A body that could not be turned into the value.
    ///
    /// ```swift
    /// if case .decoding(let failure) = error { print(failure.codingPath, failure.message) }
    /// ```
    public struct DecodingFailure: Sendable, Equatable {
        /// Where in the document decoding failed, as a path such as `items[3].title`;
        /// empty when the document as a whole was unreadable.
        public let codingPath: String
        /// A readable account of what was wrong.
        public let message: String
        /// The URL whose body failed to decode.
        public let url: URL?

        /// Creates a decoding failure.
        public init(codingPath: String, message: String, url: URL?) {
            self.codingPath = codingPath
            self.message = message
            self.url = url
        }
    }
}
