import Foundation

/// Which stored values an invalidation marks stale: one resource, every resource under
/// a URL, or those a predicate picks.
///
/// ```swift
/// webservice.invalidate(.resource(Post.resource(id: 1)))
/// webservice.invalidate(.prefix(URL(string: "https://api.example.com/posts")!))
/// webservice.invalidate(.matching { $0.url?.path.hasSuffix("/comments") == true })
/// ```
public struct Invalidation: Sendable {
    /// Whether the invalidation covers a resource of this identity.
    public let covers: @Sendable (ResourceIdentity) -> Bool

    /// An invalidation of the resources `covers` picks.
    ///
    /// - Parameter covers: Whether a resource's identity is invalidated.
    public init(_ covers: @escaping @Sendable (ResourceIdentity) -> Bool) {
        self.covers = covers
    }

    /// The resource of this identity.
    ///
    /// - Parameter identity: The resource's identity.
    /// - Returns: The invalidation.
    public static func identity(_ identity: ResourceIdentity) -> Invalidation {
        Invalidation { $0 == identity }
    }

    /// This resource: the same identity (method, URL, varying headers, body, parse).
    ///
    /// - Parameter resource: The resource.
    /// - Returns: The invalidation.
    public static func resource<A>(_ resource: Resource<A>) -> Invalidation {
        .identity(resource.identity)
    }

    /// Every resource whose URL is `prefix` or lies under it: the same scheme, host and
    /// port, and a path that continues `prefix`'s path at a `/` (or a query). So
    /// `/posts` covers `/posts`, `/posts/1` and `/posts?page=2`, not `/postscript`.
    ///
    /// - Parameter prefix: The URL the resources lie under.
    /// - Returns: The invalidation.
    public static func prefix(_ prefix: URL) -> Invalidation {
        let prefix = prefix.absoluteString
        let open = prefix.hasSuffix("/") || prefix.contains("?")
        return Invalidation { identity in
            let url = identity.urlString
            guard url.hasPrefix(prefix) else { return false }
            guard !open, url.count > prefix.count else { return true }
            let next = url[url.index(url.startIndex, offsetBy: prefix.count)]
            return next == "/" || next == "?" || next == "#"
        }
    }

    /// The resources `predicate` picks.
    ///
    /// - Parameter predicate: Whether a resource's identity is invalidated.
    /// - Returns: The invalidation.
    public static func matching(
        _ predicate: @escaping @Sendable (ResourceIdentity) -> Bool
    ) -> Invalidation {
        Invalidation(predicate)
    }

    /// Every resource.
    public static let all = Invalidation { _ in true }
}
