import Foundation

extension LoopbackServer {
    /// A request as the loopback server received it.
    ///
    /// ```swift
    /// server.route("/echo", method: .post) { request in
    ///     .init(body: request.body, headers: ["Content-Type": request.header("content-type") ?? ""])
    /// }
    /// ```
    public struct Request: Sendable {
        /// The method token, such as `GET`.
        public let method: String
        /// The request target: path and query, as sent.
        public let target: String
        /// The header fields in the order received.
        public let headers: [(name: String, value: String)]
        /// The body.
        public let body: Data
        /// Which request of its connection this is: 1 for the first, 2 for the first one
        /// sent on a kept-alive connection, and so on.
        public let numberOnConnection: Int

        /// Creates a request.
        ///
        /// - Parameters:
        ///   - method: The method token, such as `GET`.
        ///   - target: The request target: path and query.
        ///   - headers: The header fields in order.
        ///   - body: The body; empty for none.
        ///   - numberOnConnection: Which request of its connection this is, from 1.
        public init(
            method: String,
            target: String,
            headers: [(name: String, value: String)],
            body: Data,
            numberOnConnection: Int = 1
        ) {
            self.method = method
            self.target = target
            self.headers = headers
            self.body = body
            self.numberOnConnection = numberOnConnection
        }

        /// The path of the target, without the query.
        public var path: String {
            String(target.prefix { $0 != "?" })
        }

        /// The query items of the target.
        public var queryItems: [URLQueryItem] {
            URLComponents(string: target)?.queryItems ?? []
        }

        /// The value of the first query item named `name`.
        ///
        /// - Parameter name: The query item's name, compared exactly.
        /// - Returns: Its value, or `nil` when the target has no such item or it has no
        ///   value.
        public func query(_ name: String) -> String? {
            queryItems.first { $0.name == name }?.value
        }

        /// The value of the first header field named `name`, case-insensitively.
        ///
        /// - Parameter name: The field name.
        /// - Returns: Its value, or `nil` when the request has no such field.
        public func header(_ name: String) -> String? {
            headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
        }
    }
}
