import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What makes two requests the same request: method, absolute URL, and — for
/// coalescing — every header field and the body.
struct RequestKey: Hashable, Sendable {
    let method: HTTPMethod
    let url: String
    let headers: [String: String]
    let body: Data?

    /// The key of `request`; `includingHeaders: false` keeps only method and URL,
    /// which is what validators are stored under.
    init(_ request: URLRequest, includingHeaders: Bool = true) {
        method = HTTPMethod(rawValue: request.httpMethod ?? "GET")
        url = request.url?.absoluteString ?? ""
        var fields: [String: String] = [:]
        if includingHeaders {
            for (name, value) in request.allHTTPHeaderFields ?? [:] {
                fields[name.lowercased()] = value
            }
        }
        headers = fields
        body = includingHeaders ? request.httpBody : nil
    }
}
