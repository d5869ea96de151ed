/// One page of a paginated list: its items and what leads to the next page.
///
/// ```swift
/// let page = Page(items: issues, next: links.next)  // next: nil on the last page
/// ```
public struct Page<Item: Sendable, Cursor: Sendable>: Sendable {
    /// The items of the page, in list order.
    public var items: [Item]
    /// What asks for the next page — a page number, an offset, an opaque cursor, a URL
    /// — or `nil` when this is the last page.
    public var next: Cursor?

    /// Creates a page.
    public init(items: [Item], next: Cursor?) {
        self.items = items
        self.next = next
    }
}

// MARK: - where Item: Equatable, Cursor: Equatable

extension Page: Equatable where Item: Equatable, Cursor: Equatable {}
