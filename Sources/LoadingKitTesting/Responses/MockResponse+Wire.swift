import Foundation

// MARK: - On the wire

extension MockResponse {
    /// A copy that the server sends only after `delay`.
    ///
    /// - Parameter delay: How long the server waits before it answers.
    /// - Returns: The copy.
    public func delayed(by delay: Duration) -> MockResponse {
        var copy = self
        copy.delay = delay
        return copy
    }

    /// A copy whose connection closes after `count` body bytes.
    ///
    /// - Parameter count: How many bytes of the body are sent.
    /// - Returns: The copy.
    public func truncated(afterBodyBytes count: Int) -> MockResponse {
        var copy = self
        copy.truncatedAfterBodyBytes = count
        return copy
    }

    /// A copy whose body is sent in `parts` parts, `interval` apart — slower than a
    /// timeout, say.
    ///
    /// - Parameters:
    ///   - parts: How many parts the body is cut into; at least 1.
    ///   - interval: The wait between one part and the next.
    /// - Returns: The copy.
    public func trickled(in parts: Int, every interval: Duration) -> MockResponse {
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
    ///
    /// - Parameter bytes: What the server sends.
    /// - Returns: The response.
    public static func garbage(_ bytes: Data) -> MockResponse {
        var response = MockResponse()
        response.rawBytes = bytes
        return response
    }

    /// No answer at all: the server reads the request and closes its connection, as
    /// one does that closes an idle kept-alive connection just as a request arrives. On
    /// ``MockTransport`` the request fails with `URLError(.networkConnectionLost)`.
    ///
    /// ```swift
    /// server.route("/posts/1", method: .put) { request in
    ///     request.numberOnConnection > 1 ? .closedUnanswered : .json(post)
    /// }
    /// ```
    public static var closedUnanswered: MockResponse { garbage(Data()) }

    /// A copy without `Content-Length`, whose body ends when the connection closes.
    ///
    /// - Returns: The copy.
    public func withoutContentLength() -> MockResponse {
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
        _ request: LoopbackServer.Request,
        entityTag tag: String,
        _ response: MockResponse
    ) -> MockResponse {
        request.header("If-None-Match") == tag
            ? .status(304, headers: ["ETag": tag]) : response.header("ETag", tag)
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
        var head = "HTTP/1.1 \(statusCode) \(Self.reason(for: statusCode))\r\n"
        for (name, value) in headers.fields {
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
