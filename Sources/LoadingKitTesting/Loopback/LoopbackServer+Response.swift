import Foundation

extension LoopbackServer {
    /// What a loopback route answers, and how: after a delay, or cut short.
    ///
    /// ```swift
    /// .json(posts, headers: ["ETag": #""v1""#])
    /// .text("busy", status: 503, headers: ["Retry-After": "1"])
    /// .json(page).delayed(by: .seconds(5))
    /// .json(largePage).truncated(afterBodyBytes: 100)
    /// ```
    public struct Response: Sendable {
        /// The status code.
        public var status: Int
        /// The header fields; `Content-Length` and `Connection` are added.
        public var headers: [(name: String, value: String)]
        /// The body.
        public var body: Data
        /// How long the server waits before answering; cut short when it stops.
        public var delay: Duration
        /// When set, the connection is closed after this many body bytes, although
        /// `Content-Length` announces the whole body.
        public var truncatedAfterBodyBytes: Int?
        /// Whether `Content-Length` is sent; without it the body ends when the server
        /// closes the connection.
        public var announcesLength: Bool
        /// When set, the body is sent in this many parts with `trickleInterval`
        /// between them.
        public var trickleParts: Int?
        /// The pause between the parts of a trickled body.
        public var trickleInterval: Duration
        /// When set, these bytes are sent instead of an HTTP response, and the
        /// connection closes.
        public var rawBytes: Data?

        /// Creates a response.
        public init(
            status: Int = 200,
            headers: [(name: String, value: String)] = [],
            body: Data = Data()
        ) {
            self.status = status
            self.headers = headers
            self.body = body
            self.delay = .zero
            self.truncatedAfterBodyBytes = nil
            self.announcesLength = true
            self.trickleParts = nil
            self.trickleInterval = .zero
            self.rawBytes = nil
        }

        /// A response whose body is `value` as JSON.
        ///
        /// A value that cannot be encoded is a mistake in the test and stops it.
        public static func json<T: Encodable>(
            _ value: T,
            status: Int = 200,
            headers: [(name: String, value: String)] = [],
            encoder: JSONEncoder = JSONEncoder()
        ) -> Response {
            let body: Data
            do {
                body = try encoder.encode(value)
            } catch {
                preconditionFailure("LoopbackServer.Response.json could not encode: \(error)")
            }
            return Response(
                status: status,
                headers: [("Content-Type", "application/json")] + headers,
                body: body
            )
        }

        /// A response whose body is `text` in UTF-8.
        public static func text(
            _ text: String,
            status: Int = 200,
            headers: [(name: String, value: String)] = []
        ) -> Response {
            Response(
                status: status,
                headers: [("Content-Type", "text/plain; charset=utf-8")] + headers,
                body: Data(text.utf8)
            )
        }

        /// A response with only a status code.
        public static func status(
            _ code: Int,
            headers: [(name: String, value: String)] = []
        ) -> Response {
            Response(status: code, headers: headers)
        }

        /// A copy that the server sends only after `delay`.
        public func delayed(by delay: Duration) -> Response {
            var copy = self
            copy.delay = delay
            return copy
        }

        /// A copy whose connection closes after `count` body bytes.
        public func truncated(afterBodyBytes count: Int) -> Response {
            var copy = self
            copy.truncatedAfterBodyBytes = count
            return copy
        }

        /// A copy whose body is sent in `parts` parts, `interval` apart — slower than a
        /// timeout, say.
        public func trickled(in parts: Int, every interval: Duration) -> Response {
            var copy = self
            copy.trickleParts = max(1, parts)
            copy.trickleInterval = interval
            return copy
        }

        /// Bytes that are not HTTP at all, sent as they are before the connection
        /// closes.
        ///
        /// ```swift
        /// server.route("/broken") { _ in .garbage(Data("SSH-2.0-OpenSSH\r\n".utf8)) }
        /// ```
        public static func garbage(_ bytes: Data) -> Response {
            var response = Response()
            response.rawBytes = bytes
            return response
        }

        /// A copy without `Content-Length`, whose body ends when the connection closes.
        public func withoutContentLength() -> Response {
            var copy = self
            copy.announcesLength = false
            return copy
        }

        /// Whether the connection must close after this response.
        var closesConnection: Bool {
            truncatedAfterBodyBytes != nil || !announcesLength || rawBytes != nil
        }

        /// `response` with `ETag: tag`, or `304 Not Modified` when `request` already
        /// sends that tag in `If-None-Match`: a route that revalidates.
        ///
        /// ```swift
        /// server.route("/posts") { request in
        ///     .revalidating(request, entityTag: #""v1""#, .json(posts))
        /// }
        /// ```
        ///
        /// - Parameters:
        ///   - request: The request to answer.
        ///   - tag: The entity tag, quotes included.
        ///   - response: The full response, sent when the tag does not match.
        /// - Returns: The response or the `304`.
        public static func revalidating(
            _ request: Request,
            entityTag tag: String,
            _ response: Response
        ) -> Response {
            request.header("If-None-Match") == tag
                ? .status(304, headers: [("ETag", tag)]) : response.header("ETag", tag)
        }

        /// A copy with one more header field.
        public func header(_ name: String, _ value: String) -> Response {
            var copy = self
            copy.headers.append((name, value))
            return copy
        }

        /// The bytes sent on the wire, in the parts to send them in: the head with the
        /// first part of the (possibly truncated) body, then the other parts.
        func parts(keepAlive: Bool) -> [[UInt8]] {
            if let rawBytes {
                return [Array(rawBytes)]
            }
            let whole = serialized(keepAlive: keepAlive)
            guard let trickleParts, trickleParts > 1 else { return [whole] }
            let headLength =
                whole.count - (truncatedAfterBodyBytes.map { min($0, body.count) } ?? body.count)
            let bodyBytes = whole[headLength...]
            let size = max(1, (bodyBytes.count + trickleParts - 1) / trickleParts)
            var parts = [Array(whole[..<headLength])]
            var start = bodyBytes.startIndex
            while start < bodyBytes.endIndex {
                let end = min(bodyBytes.endIndex, start + size)
                parts.append(Array(bodyBytes[start..<end]))
                start = end
            }
            return parts
        }

        /// The bytes sent on the wire: the head and the (possibly truncated) body.
        func serialized(keepAlive: Bool) -> [UInt8] {
            var head = "HTTP/1.1 \(status) \(Self.reason(for: status))\r\n"
            for (name, value) in headers {
                head += "\(name): \(value)\r\n"
            }
            if announcesLength {
                head += "Content-Length: \(body.count)\r\n"
            }
            head +=
                keepAlive && !closesConnection
                ? "Connection: keep-alive\r\n\r\n" : "Connection: close\r\n\r\n"
            let bodyBytes = truncatedAfterBodyBytes.map { body.prefix($0) } ?? body
            return Array(head.utf8) + bodyBytes
        }

        private static func reason(for status: Int) -> String {
            switch status {
            case 200: "OK"
            case 201: "Created"
            case 204: "No Content"
            case 304: "Not Modified"
            case 400: "Bad Request"
            case 404: "Not Found"
            case 408: "Request Timeout"
            case 422: "Unprocessable Content"
            case 429: "Too Many Requests"
            case 500: "Internal Server Error"
            case 503: "Service Unavailable"
            default: "Status"
            }
        }
    }
}
