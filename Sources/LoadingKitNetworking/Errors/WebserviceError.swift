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
    /// The body was larger than the transport's limit; it was not buffered past it.
    case responseTooLarge(SizeFailure)
    /// The server answered `304 Not Modified` but no earlier value of the resource
    /// is known to stand for it.
    case notModifiedWithoutCache(url: URL?)
    /// A mutation kept until sent (``Mutation/keptUntilSent()``) could not reach the
    /// server and waits in the ``Outbox``: it is sent again later, and its optimistic
    /// changes stay shown meanwhile.
    case queued(QueuedWrite)
    /// The ``Outbox`` did not take a mutation kept until sent: it was not sent, and
    /// its optimistic changes were taken back.
    case outboxRefused(OutboxRefusal)
    /// The request needs the ``Authenticator``'s credential and there was none to send,
    /// or its answer belonged to an account no longer signed in.
    case authentication(AuthenticationFailure)

    /// Whether the load was cancelled, rather than failed.
    public var isCancellation: Bool { self == .cancelled }
}

// MARK: - Failures

extension WebserviceError {
    /// A body larger than the transport's limit, which was not buffered past it.
    ///
    /// ```swift
    /// if case .responseTooLarge(let failure) = error { print(failure.limit) }
    /// ```
    public struct SizeFailure: Sendable, Equatable {
        /// The limit, in bytes.
        public let limit: Int
        /// The URL that was requested, when known.
        public let url: URL?
        /// The method of the request, when known.
        public let method: HTTPMethod?

        /// Creates a size failure.
        ///
        /// - Parameters:
        ///   - limit: The limit, in bytes.
        ///   - url: The URL that was requested; the webservice fills it in when a
        ///     transport leaves it out.
        ///   - method: The method of the request; filled in likewise.
        public init(limit: Int, url: URL? = nil, method: HTTPMethod? = nil) {
            self.limit = limit
            self.url = url
            self.method = method
        }
    }

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
        /// The method of the request, when known.
        public let method: HTTPMethod?
        /// The error the transport threw. Printing it may print the whole URL, query
        /// and user included: log ``WebserviceError/description`` instead.
        public let underlying: any Error

        /// Creates a transport failure from the error a transport threw.
        ///
        /// - Parameters:
        ///   - underlying: The error the transport threw.
        ///   - url: The URL that was requested.
        ///   - method: The method of the request.
        public init(underlying: any Error, url: URL?, method: HTTPMethod? = nil) {
            let urlError = underlying as? URLError
            self.code = urlError?.code
            self.message = urlError.map(Self.message(for:)) ?? "\(type(of: underlying))"
            self.url = url
            self.method = method
            self.underlying = underlying
        }

        /// What went wrong, by code: `URLError`'s own texts can name the URL.
        private static func message(for error: URLError) -> String {
            switch error.code {
            case .timedOut: "the request timed out"
            case .cannotConnectToHost: "could not connect to the server"
            case .cannotFindHost, .dnsLookupFailed: "the server was not found"
            case .networkConnectionLost: "the connection was lost"
            case .notConnectedToInternet: "not connected to the network"
            case .badServerResponse, .cannotParseResponse: "the server sent a malformed response"
            case .unsupportedURL: "the URL's scheme or the reply's protocol is not supported"
            case .badURL: "the URL is malformed"
            case .secureConnectionFailed: "a secure connection could not be made"
            case .serverCertificateUntrusted, .serverCertificateHasBadDate,
                .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot:
                "the server's certificate is not trusted"
            case .clientCertificateRejected, .clientCertificateRequired:
                "the server refused the client's certificate or asked for one"
            case .httpTooManyRedirects: "too many redirects"
            case .redirectToNonExistentLocation: "a redirect led nowhere"
            case .zeroByteResource: "the server sent an empty reply"
            case .dataLengthExceedsMaximum: "the reply is larger than the transport allows"
            case .cannotDecodeContentData, .cannotDecodeRawData:
                "the reply's content encoding could not be decoded"
            case .userAuthenticationRequired, .userCancelledAuthentication:
                "the server asked for authentication"
            case .resourceUnavailable: "the resource is unavailable"
            case .dataNotAllowed, .internationalRoamingOff, .callIsActive, .cannotLoadFromNetwork:
                "the network may not be used now"
            case .requestBodyStreamExhausted: "the request's body could not be sent again"
            case .appTransportSecurityRequiresSecureConnection: "a secure connection is required"
            case .fileDoesNotExist, .fileIsDirectory, .noPermissionsToReadFile:
                "the file could not be read"
            default: "URL error \(error.code.rawValue)"
            }
        }

        /// Two failures are equal when their code, message and URL are.
        ///
        /// - Parameters:
        ///   - lhs: One failure.
        ///   - rhs: The other.
        /// - Returns: Whether their code, message and URL are equal.
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
        /// The method of the request, when known.
        public let method: HTTPMethod?

        /// Creates a status failure.
        ///
        /// - Parameters:
        ///   - statusCode: The response's status code.
        ///   - headers: The response's header fields.
        ///   - body: The response body.
        ///   - url: The URL that answered.
        ///   - method: The method of the request.
        public init(
            statusCode: Int,
            headers: [String: String],
            body: Data,
            url: URL?,
            method: HTTPMethod? = nil
        ) {
            self.statusCode = statusCode
            self.headers = headers
            self.body = body
            self.url = url
            self.method = method
        }

        /// The value of the header field `name`, compared without case.
        ///
        /// - Parameter name: The field name.
        /// - Returns: The field's value, or `nil` when the response has no such field.
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
        /// A readable account of what was wrong. It can quote the body, so the
        /// error's ``WebserviceError/description`` shows ``expectation`` instead.
        public let message: String
        /// What the decoder expected, such as `expected Int` or `missing key "id"`,
        /// without any text of the body; empty when unknown.
        public let expectation: String
        /// The URL whose body failed to decode.
        public let url: URL?
        /// The method of the request, when known.
        public let method: HTTPMethod?
        /// The coding path as descriptions show it: keys read from the body, such as a
        /// dictionary's, are shown as `<key>`.
        var describedPath: String

        /// Creates a decoding failure.
        ///
        /// - Parameters:
        ///   - codingPath: Where in the document decoding failed.
        ///   - message: A readable account of what was wrong.
        ///   - expectation: What the decoder expected, without text of the body.
        ///   - url: The URL whose body failed to decode.
        ///   - method: The method of the request.
        public init(
            codingPath: String,
            message: String,
            expectation: String = "",
            url: URL?,
            method: HTTPMethod? = nil
        ) {
            self.codingPath = codingPath
            self.message = message
            self.expectation = expectation
            self.url = url
            self.method = method
            self.describedPath = codingPath
        }
    }
}
