import LoadingKitNetworking

/// Closing the gap a window over numbered or offset pages would leave when the list
/// moved under it: items published at the head shift every page back, so a page asked
/// for before the content no longer ends where the content starts; items removed at
/// the head shift them forward, so a page asked for after the content no longer starts
/// where it ends. When a page's total count grew (before the content) or shrank (after
/// it) since the page at that end was fetched, and the page does not reach the item
/// shown next to it, the pages between are fetched again — one request each, at most
/// ``PageGap/maximumPages`` — and their items go in with the page, so that the items
/// shown stay contiguous. Items must be `Identifiable` for it.
struct PageGap<Item: Sendable>: Sendable {
    /// The most pages fetched to close one gap.
    static var maximumPages: Int { 5 }

    /// The total count when the page at that end of the content was fetched.
    let total: Int?
    /// The item shown next to where the page goes: the first for a page before the
    /// content, the last for one after it.
    let neighbour: Item?
    /// An item's identifier, `nil` when items are not `Identifiable`.
    let identifier: @Sendable (Item) -> AnyHashable?

    /// `page`, fetched toward `direction`, with the items of the pages between it and
    /// the content when the list moved; `fetch` fetches the page of a cursor.
    func closing<Cursor: Sendable>(
        after page: Page<Item, Cursor>,
        toward direction: PageDirection,
        fetch: (Cursor) async throws -> Page<Item, Cursor>
    ) async throws -> Page<Item, Cursor> {
        guard let neighbour = neighbour.flatMap(identifier), let total,
            let now = page.totalCount, direction == .previous ? now > total : now < total,
            !page.items.contains(where: { identifier($0) == neighbour })
        else { return page }
        var items = page.items
        var cursor = direction == .previous ? page.next : page.previous
        for _ in 0..<Self.maximumPages {
            guard let next = cursor else { break }
            let between = try await fetch(next)
            let reached = between.items.firstIndex { identifier($0) == neighbour }
            switch (direction, reached) {
            case (.previous, let index?):
                items += between.items[..<index]
            case (.next, let index?):
                items = Array(between.items[(index + 1)...]) + items
            case (.previous, nil):
                items += between.items
                cursor = between.next
            case (.next, nil):
                items = between.items + items
                cursor = between.previous
            }
            if reached != nil {
                var closed = page
                closed.items = items
                return closed
            }
        }
        // Nothing shown was reached: the page goes in as the server gave it.
        return page
    }

    /// How many items at the end of `content` toward `direction` open `page` (after
    /// the content) or close it (before it): items the list moved from the page next
    /// to it onto this one since that page was fetched. They are this page's from
    /// now on, so that dropping the page they were shown with from the window does not
    /// take them away while the server lists them on this page.
    static func moved(
        onto page: [Item],
        toward direction: PageDirection,
        from content: some Collection<Item>,
        identifier: (Item) -> AnyHashable?
    ) -> Int {
        func ids(_ items: [Item]) -> [AnyHashable?] { items.map(identifier) }
        let reach = min(page.count, content.count)
        switch direction {
        case .next:
            let end = ids(Array(content.suffix(reach)))
            guard let first = page.first.flatMap(identifier),
                let start = end.lastIndex(of: first)
            else { return 0 }
            let moved = end.count - start
            return end[start...].elementsEqual(ids(Array(page.prefix(moved)))) ? moved : 0
        case .previous:
            let head = ids(Array(content.prefix(reach)))
            guard let last = page.last.flatMap(identifier),
                let end = head.firstIndex(of: last)
            else { return 0 }
            let moved = end + 1
            return head[...end].elementsEqual(ids(Array(page.suffix(moved)))) ? moved : 0
        }
    }
}
