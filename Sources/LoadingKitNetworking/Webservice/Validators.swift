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

    /// The longest validator kept, in UTF-8 bytes: a longer one is dropped, since
    /// echoing it would make every conditional request too large for servers (`431`).
    public static let maximumLength = 8 << 10

    /// Creates validators, dropping one longer than ``maximumLength``; `nil` when none
    /// is left.
    ///
    /// - Parameters:
    ///   - entityTag: The `ETag` as received, weak prefix and quotes included.
    ///   - lastModified: The `Last-Modified` date as received.
    public init?(entityTag: String?, lastModified: String?) {
        let isKept = { (field: String) in field.utf8.count <= Self.maximumLength }
        let entityTag = entityTag.flatMap { isKept($0) ? $0 : nil }
        let lastModified = lastModified.flatMap { isKept($0) ? $0 : nil }
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
