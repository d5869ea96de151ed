import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The validators of a response — its `ETag` and `Last-Modified` — which a
/// conditional request sends back byte for byte to ask "changed since?".
///
/// ```swift
/// let validators = Validators(response: response)
/// validators?.apply(to: &request)   // If-None-Match / If-Modified-Since
/// ```
public struct Validators: Sendable, Hashable {
    /// The entity tag as received, weak prefix and quotes included.
    public let entityTag: String?
    /// The `Last-Modified` date as received.
    public let lastModified: String?

    /// Creates validators; `nil` when both are missing.
    ///
    /// - Parameters:
    ///   - entityTag: The `ETag` as received, weak prefix and quotes included.
    ///   - lastModified: The `Last-Modified` date as received.
    public init?(entityTag: String?, lastModified: String?) {
        guard entityTag != nil || lastModified != nil else { return nil }
        self.entityTag = entityTag
        self.lastModified = lastModified
    }

    /// The validators of `response`; `nil` when it has none.
    ///
    /// - Parameter response: The response whose `ETag` and `Last-Modified` header
    ///   fields are read.
    public init?(response: HTTPURLResponse) {
        self.init(
            entityTag: response.value(forHTTPHeaderField: "ETag"),
            lastModified: response.value(forHTTPHeaderField: "Last-Modified")
        )
    }

    /// Adds `If-None-Match` and `If-Modified-Since` to `request`, leaving conditions
    /// the request already has.
    ///
    /// - Parameter request: The request to make conditional.
    public func apply(to request: inout URLRequest) {
        if let entityTag, request.value(forHTTPHeaderField: "If-None-Match") == nil {
            request.setValue(entityTag, forHTTPHeaderField: "If-None-Match")
        }
        if let lastModified, request.value(forHTTPHeaderField: "If-Modified-Since") == nil {
            request.setValue(lastModified, forHTTPHeaderField: "If-Modified-Since")
        }
    }
}
