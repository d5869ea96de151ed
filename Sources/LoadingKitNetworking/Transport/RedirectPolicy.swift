import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a ``URLSessionTransport`` does when a server redirects a request: credentials
/// never follow a redirect to another origin.
///
/// ```swift
/// var redirects = RedirectPolicy()
/// redirects.credentialHeaders.insert("X-API-Key")          // also a credential
/// redirects.trustedOrigins = [URL(string: "https://cdn.example.com")!]
/// let transport = URLSessionTransport(configuration: .init(redirects: redirects))
/// ```
///
/// A redirect within the origin (scheme, host and port) the request was sent to is
/// followed as it is. One to another origin is followed without the credential
/// headers — `Authorization`, `Cookie`, `Proxy-Authorization` and any in
/// ``credentialHeaders`` — unless the new origin is trusted; one that would send a
/// body there (a 307 or 308 of a `POST`) is not followed, nor any with
/// ``refusesCrossOrigin``. A redirect from `https` to
/// `http` is refused unless ``allowsDowngrade`` is set. A refused redirect ends the
/// load with its `3xx` response, as ``WebserviceError/badStatus(_:)``.
public struct RedirectPolicy: Sendable, Equatable {
    /// The header fields that carry credentials, dropped on a redirect to another
    /// origin. Default: `Authorization`, `Cookie` and `Proxy-Authorization`; names
    /// compare without case.
    public var credentialHeaders: Set<String>
    /// Origins that may receive the credentials of a redirected request; only their
    /// scheme, host and port count. Default: none.
    public var trustedOrigins: [URL]
    /// Whether a redirect to another origin is refused rather than followed without
    /// credentials. Default: `false`.
    public var refusesCrossOrigin: Bool
    /// Whether a redirect from `https` to `http` is followed. Default: `false`.
    public var allowsDowngrade: Bool

    /// Creates a policy.
    ///
    /// - Parameters:
    ///   - credentialHeaders: The header fields dropped on a redirect to another
    ///     origin.
    ///   - trustedOrigins: Origins that may receive them anyway.
    ///   - refusesCrossOrigin: Whether redirects to another origin are refused.
    ///   - allowsDowngrade: Whether redirects from `https` to `http` are followed.
    public init(
        credentialHeaders: Set<String> = ["Authorization", "Cookie", "Proxy-Authorization"],
        trustedOrigins: [URL] = [],
        refusesCrossOrigin: Bool = false,
        allowsDowngrade: Bool = false
    ) {
        self.credentialHeaders = credentialHeaders
        self.trustedOrigins = trustedOrigins
        self.refusesCrossOrigin = refusesCrossOrigin
        self.allowsDowngrade = allowsDowngrade
    }

    /// The request to send for a redirect from `origin` to `redirected`, or `nil` to
    /// refuse it.
    ///
    /// - Parameters:
    ///   - redirected: The request the redirect asks for, with the previous request's
    ///     header fields.
    ///   - origin: The URL the request was first sent to.
    /// - Returns: The request to follow with, or `nil`.
    public func request(following redirected: URLRequest, from origin: URL) -> URLRequest? {
        guard let target = redirected.url else { return nil }
        if origin.scheme?.lowercased() == "https", target.scheme?.lowercased() != "https",
            !allowsDowngrade
        {
            return nil
        }
        if target.hasSameOrigin(as: origin)
            || trustedOrigins.contains(where: { target.hasSameOrigin(as: $0) })
        {
            return redirected
        }
        guard !refusesCrossOrigin, redirected.httpBody == nil, redirected.httpBodyStream == nil
        else { return nil }
        var stripped = redirected
        let credentials = Set(credentialHeaders.map { $0.lowercased() })
        for name in (redirected.allHTTPHeaderFields ?? [:]).keys
        where credentials.contains(name.lowercased()) {
            stripped.setValue(nil, forHTTPHeaderField: name)
        }
        return stripped
    }
}
