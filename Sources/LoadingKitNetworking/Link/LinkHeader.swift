import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The links of an HTTP `Link` header (RFC 8288), such as the `next` page of a list.
///
/// ```swift
/// let links = LinkHeader(response: response)
/// if let next = links.next { load(page: next) }
///
/// LinkHeader(#"</issues?page=2>; rel="next", </issues?page=5>; rel="last""#,
///            relativeTo: URL(string: "https://api.github.com/repos/o/r/issues")).next
/// // https://api.github.com/issues?page=2
/// ```
///
/// Parsing never fails: a malformed link is left out, and counted in
/// ``malformedValueCount``, and the others are kept. It takes time linear in the
/// length of the header, whatever its content.
public struct LinkHeader: Sendable, Equatable {
    /// One link: a target URL, its relation types and its other parameters.
    ///
    /// ```swift
    /// link.relations.contains("next")
    /// link.parameters["title"]
    /// ```
    public struct Link: Sendable, Equatable {
        /// The target, resolved against the URL of the response.
        public let url: URL
        /// The relation types of the first `rel` parameter, in lower case.
        public let relations: [String]
        /// The link's parameters by lower-cased name, first occurrence kept, `rel`
        /// included.
        public let parameters: [String: String]

        /// Creates a link.
        ///
        /// - Parameters:
        ///   - url: The target, already resolved.
        ///   - relations: The relation types, in lower case.
        ///   - parameters: The link's parameters by lower-cased name, `rel` included.
        public init(url: URL, relations: [String], parameters: [String: String]) {
            self.url = url
            self.relations = relations
            self.parameters = parameters
        }
    }

    /// The links in the order they appear.
    public let links: [Link]
    /// How many malformed link values were left out — a `next` among them is lost;
    /// `0` when every value was read. Values skipped together, up to where the next
    /// one can start, count once.
    public let malformedValueCount: Int

    /// Parses one or more `Link` field values.
    ///
    /// - Parameters:
    ///   - fieldValues: The values of every `Link` header field of a response.
    ///   - base: The URL relative targets are resolved against: the request's URL.
    public init(fieldValues: [String], relativeTo base: URL? = nil) {
        var parser = LinkHeaderParser(base: base)
        for value in fieldValues {
            parser.parse(value)
        }
        links = parser.links
        malformedValueCount = parser.malformedCount
    }

    /// Parses one `Link` field value.
    ///
    /// - Parameters:
    ///   - fieldValue: A comma-separated list of links.
    ///   - base: The URL relative targets are resolved against: the request's URL.
    public init(_ fieldValue: String, relativeTo base: URL? = nil) {
        self.init(fieldValues: [fieldValue], relativeTo: base)
    }

    /// The links of a response's `Link` header, resolved against its URL; no links
    /// when it has none.
    ///
    /// - Parameter response: The response whose `Link` header field is read.
    public init(response: HTTPURLResponse) {
        let value = response.value(forHTTPHeaderField: "Link")
        self.init(fieldValues: value.map { [$0] } ?? [], relativeTo: response.url)
    }

    /// The target of the first link with the relation type `relation`
    /// (case-insensitive).
    ///
    /// - Parameter relation: The relation type, such as `next` or `last`.
    /// - Returns: The link's target, or `nil` when no link has that relation type.
    public func url(for relation: String) -> URL? {
        let relation = relation.lowercased()
        return links.first { $0.relations.contains(relation) }?.url
    }

    /// The target of `rel="next"`.
    public var next: URL? { url(for: "next") }
    /// The target of `rel="prev"` (or the older `rel="previous"`).
    public var previous: URL? { url(for: "prev") ?? url(for: "previous") }
    /// The target of `rel="first"`.
    public var first: URL? { url(for: "first") }
    /// The target of `rel="last"`.
    public var last: URL? { url(for: "last") }
}
