import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a response said beside its value that a screen may show: its status, its
/// `Link` relations and the size of the whole list.
///
/// ```swift
/// let stored = webservice.storedValue(for: Issue.all)
/// stored?.response.links.next
/// stored?.response.totalCount   // X-Total-Count
/// ```
public struct ResponseSummary: Sendable, Equatable {
    /// The status code.
    public let statusCode: Int
    /// How many items the whole list holds, from `X-Total-Count`.
    public let totalCount: Int?
    /// The `Link` field as received, parsed when asked for.
    private let linkField: String?
    /// The URL relative links resolve against.
    private let url: URL?

    /// Creates a summary.
    ///
    /// - Parameters:
    ///   - statusCode: The status code.
    ///   - linkField: The `Link` header field, if any.
    ///   - url: The response's URL, which relative links resolve against.
    ///   - totalCount: How many items the whole list holds.
    public init(statusCode: Int, linkField: String? = nil, url: URL? = nil, totalCount: Int? = nil)
    {
        self.statusCode = statusCode
        self.linkField = linkField
        self.url = url
        self.totalCount = totalCount
    }

    /// The summary of `response`.
    ///
    /// - Parameter response: The response.
    public init(response: HTTPURLResponse) {
        self.init(
            statusCode: response.statusCode,
            linkField: response.value(forHTTPHeaderField: "Link"),
            url: response.url,
            totalCount: response.value(forHTTPHeaderField: "X-Total-Count").flatMap { Int($0) }
        )
    }

    /// The `Link` header's links, resolved against the response's URL.
    public var links: LinkHeader {
        LinkHeader(fieldValues: linkField.map { [$0] } ?? [], relativeTo: url)
    }
}
