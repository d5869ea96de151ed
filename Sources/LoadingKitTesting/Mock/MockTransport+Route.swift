import Foundation
import LoadingKitNetworking

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension MockTransport {
    /// Which requests a scripted response answers.
    struct Route: Hashable, Sendable, CustomStringConvertible {
        let method: HTTPMethod
        let pattern: String

        init(_ method: HTTPMethod, _ pattern: String) {
            self.method = method
            self.pattern = pattern
        }

        /// An absolute pattern matches the whole URL; one with a query matches path
        /// and query; otherwise the path alone.
        func matches(_ request: URLRequest) -> Bool {
            guard let url = request.url,
                HTTPMethod(rawValue: request.httpMethod ?? "GET") == method
            else { return false }
            if pattern.contains("://") {
                return url.absoluteString == pattern
            }
            let path = url.path.isEmpty ? "/" : url.path
            if pattern.contains("?") {
                return url.query.map { "\(path)?\($0)" } == pattern
            }
            return path == pattern
        }

        var description: String { "\(method) \(pattern)" }
    }
}
