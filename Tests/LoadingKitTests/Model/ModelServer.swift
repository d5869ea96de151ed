import Foundation
import LoadingKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The server side of the model test: a list of posts, newest first, that grows at
/// the head; pages of ten by number, a head page for refreshes, and an `ETag` per
/// answer so that unchanged answers can be 304s.
struct ModelServer {
    private(set) var posts: [Post] = Post.list((1...35).reversed())
    private var nextID = 36
    private(set) var served: Set<Int> = []

    /// What a request is answered with.
    enum Outcome: CaseIterable {
        case success
        case unavailable
        case dropped
        case empty
    }

    /// Adds `count` posts at the head.
    mutating func publish(_ count: Int) {
        posts.insert(contentsOf: Post.list((nextID..<nextID + count).reversed()), at: 0)
        nextID += count
    }

    /// The answer to `request` now.
    mutating func answer(_ request: URLRequest, _ outcome: Outcome) -> Result<
        (Data, HTTPURLResponse), any Error
    > {
        let url = request.url!
        switch outcome {
        case .dropped:
            return .failure(URLError(.networkConnectionLost))
        case .unavailable:
            return .success((Data("busy".utf8), response(url, status: 503, headers: [:])))
        case .empty, .success:
            let items = outcome == .empty ? [] : page(of: url)
            let tag = "\"\(items.map(\.id))\""
            if request.value(forHTTPHeaderField: "If-None-Match") == tag {
                return .success((Data(), response(url, status: 304, headers: ["ETag": tag])))
            }
            served.formUnion(items.map(\.id))
            let body = (try? JSONEncoder().encode(items)) ?? Data()
            return .success((body, response(url, status: 200, headers: ["ETag": tag])))
        }
    }

    private func page(of url: URL) -> [Post] {
        let query = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        let number = query.first { $0.name == "page" }?.value.flatMap(Int.init) ?? 1
        let start = min(posts.count, (number - 1) * 10)
        return Array(posts[start..<min(posts.count, start + 10)])
    }

    private func response(_ url: URL, status: Int, headers: [String: String]) -> HTTPURLResponse {
        HTTPURLResponse(
            url: url,
            statusCode: status,
            httpVersion: "HTTP/1.1",
            headerFields: headers
        )!
    }
}
