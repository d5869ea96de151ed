import Foundation

/// A scripted HTTP response: what ``MockTransport`` hands back and what a
/// ``LoopbackServer`` route sends on the wire — one vocabulary for both.
///
/// ```swift
/// mock.respond(to: "/episodes/1", with: .json(Episode(id: 1, title: "Pilot")))
/// mock.respond(to: "/episodes/2", with: .text("Not found", status: 404))
/// server.route("/posts") { _ in .json(posts, headers: ["ETag": #""v1""#]) }
/// server.route("/slow") { _ in .json(page).delayed(by: .seconds(5)) }
/// ```
///
/// How the bytes travel — ``delayed(by:)``, ``trickled(in:every:)``,
/// ``withoutContentLength()`` — is the loopback server's business: the mock transport
/// has no wire and ignores it (hold a mock response with a ``MockTransport/Gate``).
/// A ``truncated(afterBodyBytes:)`` body fails on the mock as a lost connection, and
/// ``garbage(_:)`` as a bad server response, as they do over a socket.
public struct MockResponse: Sendable {
    /// The status code.
    public var statusCode: Int
    /// The header fields. The loopback server adds `Content-Length` and `Connection`.
    public var headers: HeaderFields
    /// The body.
    public var body: Data
    /// How long the loopback server waits before answering; cut short when it stops.
    public var delay: Duration
    /// When set, the connection is closed after this many body bytes, although
    /// `Content-Length` announces the whole body.
    public var truncatedAfterBodyBytes: Int?
    /// Whether `Content-Length` is sent; without it the body ends when the server
    /// closes the connection.
    public var announcesLength: Bool
    /// When set, the body is sent in this many parts with ``trickleInterval`` between
    /// them.
    public var trickleParts: Int?
    /// The pause between the parts of a trickled body.
    public var trickleInterval: Duration
    /// When set, these bytes are sent instead of an HTTP response, and the connection
    /// closes.
    public var rawBytes: Data?
    /// When set, the body is streamed as the test writes it, instead of ``body``; see
    /// ``streamed(_:status:headers:)``.
    public var streamedBody: StreamedBody?

    /// Creates a response.
    ///
    /// - Parameters:
    ///   - statusCode: The status code; `200` by default.
    ///   - headers: The header fields.
    ///   - body: The body.
    public init(statusCode: Int = 200, headers: HeaderFields = [:], body: Data = Data()) {
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
        self.delay = .zero
        self.truncatedAfterBodyBytes = nil
        self.announcesLength = true
        self.trickleParts = nil
        self.trickleInterval = .zero
        self.rawBytes = nil
        self.streamedBody = nil
    }

    /// Creates a response from header fields kept in a dictionary, sent in the order
    /// of their names.
    ///
    /// - Parameters:
    ///   - statusCode: The status code; `200` by default.
    ///   - headers: The header fields.
    ///   - body: The body.
    public init(statusCode: Int = 200, headers: [String: String], body: Data = Data()) {
        self.init(statusCode: statusCode, headers: HeaderFields(headers), body: body)
    }

    /// A response whose body is `value` encoded as JSON, with
    /// `Content-Type: application/json`.
    ///
    /// A value that cannot be encoded is a mistake in the test and stops it.
    ///
    /// - Parameters:
    ///   - value: What to encode.
    ///   - status: The status code; `200` by default.
    ///   - headers: More header fields.
    ///   - encoder: The encoder; a default `JSONEncoder` by default.
    /// - Returns: The response.
    public static func json<T: Encodable>(
        _ value: T,
        status: Int = 200,
        headers: HeaderFields = [:],
        encoder: JSONEncoder = JSONEncoder()
    ) -> MockResponse {
        let body: Data
        do {
            body = try encoder.encode(value)
        } catch {
            preconditionFailure("MockResponse.json could not encode \(T.self): \(error)")
        }
        return MockResponse(
            statusCode: status,
            headers: ["Content-Type": "application/json"] + headers,
            body: body
        )
    }

    /// A response whose body is `text` in UTF-8, with `Content-Type: text/plain`.
    ///
    /// - Parameters:
    ///   - text: The body.
    ///   - status: The status code; `200` by default.
    ///   - headers: More header fields.
    /// - Returns: The response.
    public static func text(
        _ text: String,
        status: Int = 200,
        headers: HeaderFields = [:]
    ) -> MockResponse {
        MockResponse(
            statusCode: status,
            headers: ["Content-Type": "text/plain; charset=utf-8"] + headers,
            body: Data(text.utf8)
        )
    }

    /// A `text/event-stream` response whose body `body` streams: server-sent events
    /// as the test sends them.
    ///
    /// ```swift
    /// let body = StreamedBody()
    /// mock.respond(to: "/events", with: .eventStream(body))
    /// body.send("data: hello\n\n")
    /// ```
    ///
    /// - Parameters:
    ///   - body: The body the test writes.
    ///   - status: The status code; `200` by default.
    ///   - headers: More header fields.
    /// - Returns: The response.
    public static func eventStream(
        _ body: StreamedBody,
        status: Int = 200,
        headers: HeaderFields = [:]
    ) -> MockResponse {
        streamed(body, status: status, headers: ["Content-Type": "text/event-stream"] + headers)
    }

    /// A response whose body `body` streams as the test writes it — NDJSON, say, with
    /// the content type in `headers`.
    ///
    /// - Parameters:
    ///   - body: The body the test writes.
    ///   - status: The status code; `200` by default.
    ///   - headers: The header fields.
    /// - Returns: The response.
    public static func streamed(
        _ body: StreamedBody,
        status: Int = 200,
        headers: HeaderFields = [:]
    ) -> MockResponse {
        var response = MockResponse(statusCode: status, headers: headers)
        response.streamedBody = body
        return response
    }

    /// A response with only a status code.
    ///
    /// - Parameters:
    ///   - code: The status code.
    ///   - headers: The header fields.
    /// - Returns: The response, with an empty body.
    public static func status(_ code: Int, headers: HeaderFields = [:]) -> MockResponse {
        MockResponse(statusCode: code, headers: headers)
    }

    /// A copy with one more header field.
    ///
    /// - Parameters:
    ///   - name: The field name.
    ///   - value: Its value.
    /// - Returns: The copy.
    public func header(_ name: String, _ value: String) -> MockResponse {
        var copy = self
        copy.headers.append(name, value)
        return copy
    }
}
