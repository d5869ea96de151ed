/// One page of a paginated list: its items, what leads to the pages around it, and
/// what the API says of the whole list.
///
/// ```swift
/// let page = Page(items: issues, next: links.next, previous: links.previous)  // nil at either end
/// ```
public struct Page<Item: Sendable, Cursor: Sendable>: Sendable {
    /// The items of the page, in list order.
    public var items: [Item]
    /// What asks for the next page — a page number, an offset, an opaque cursor, a URL
    /// — or `nil` when this is the last page.
    public var next: Cursor?
    /// What asks for the page before this one, or `nil` when this is the first page or
    /// the API cannot say.
    public var previous: Cursor?
    /// What asks for the first page, when the API says (`Link: rel="first"`).
    public var first: Cursor?
    /// What asks for the last page, when the API says (`Link: rel="last"`, or a page
    /// number or offset computed from the total count).
    public var last: Cursor?
    /// How many items the whole list holds, when the API says (`X-Total-Count`, or a
    /// count in the body).
    public var totalCount: Int?

    /// Creates a page.
    ///
    /// - Parameters:
    ///   - items: The items of the page, in list order.
    ///   - next: What asks for the next page; `nil` on the last page.
    ///   - previous: What asks for the page before; `nil` on the first page or when
    ///     unknown.
    ///   - first: What asks for the first page, when known.
    ///   - last: What asks for the last page, when known.
    ///   - totalCount: How many items the whole list holds, when known.
    public init(
        items: [Item],
        next: Cursor?,
        previous: Cursor? = nil,
        first: Cursor? = nil,
        last: Cursor? = nil,
        totalCount: Int? = nil
    ) {
        self.items = items
        self.next = next
        self.previous = previous
        self.first = first
        self.last = last
        self.totalCount = totalCount
    }
}

// MARK: - where Item: Equatable, Cursor: Equatable

extension Page: Equatable where Item: Equatable, Cursor: Equatable {}

/// A page of `Codable` items and cursors is written to a persistent store as any value
/// is, so that a list shown again after a relaunch revalidates its pages, once stale,
/// with the validators they came with.
extension Page: Codable where Item: Codable, Cursor: Codable {}
