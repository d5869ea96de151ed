import LoadingKitNetworking

/// What a paginated list showed — its items and its window of pages, with their
/// cursors and totals — kept in the webservice's store under the list, and on disk
/// when the items and the cursors are `Codable`, so that the next screen opening the
/// list, in this launch or a later one, shows it as its first frame.
///
/// A list keeps one when its view disappears, when another screen opens the list, and
/// when the app persists its pending values — never as it changes: the next page
/// appended after a keep copies the list once, and no other does.
struct ListSnapshot<Items: Sendable, Cursor: Sendable>: Sendable {
    /// The content, every page held.
    let items: Items
    /// The window of pages, without what failed or waited.
    let window: PaginationState<Cursor>

    /// The identity a snapshot of the list of `identity` is stored under.
    static func identity(ofList identity: ResourceIdentity) -> ResourceIdentity {
        identity.listed(as: Self.self, by: key)
    }

    /// Names the snapshot of a list beside the list itself.
    static var key: String { "window" }
}

/// On disk: the items, then the parts of the window a later launch needs.
extension ListSnapshot: Codable where Items: Codable, Cursor: Codable {
    private enum CodingKeys: String, CodingKey {
        case items, pages, droppedHead, droppedTail, totalCount, firstCursor, lastCursor
    }

    init(from decoder: any Decoder) throws {
        let parts = try decoder.container(keyedBy: CodingKeys.self)
        items = try parts.decode(Items.self, forKey: .items)
        window = PaginationState(
            pages: try parts.decode([PaginationState<Cursor>.PageRecord].self, forKey: .pages),
            droppedHead: try parts.decode([Cursor?].self, forKey: .droppedHead),
            droppedTail: try parts.decode([Cursor?].self, forKey: .droppedTail),
            totalCount: try parts.decodeIfPresent(Int.self, forKey: .totalCount),
            firstCursor: try parts.decodeIfPresent(Cursor.self, forKey: .firstCursor),
            lastCursor: try parts.decodeIfPresent(Cursor.self, forKey: .lastCursor)
        )
    }

    func encode(to encoder: any Encoder) throws {
        var parts = encoder.container(keyedBy: CodingKeys.self)
        try parts.encode(items, forKey: .items)
        try parts.encode(window.pages, forKey: .pages)
        try parts.encode(window.droppedHead, forKey: .droppedHead)
        try parts.encode(window.droppedTail, forKey: .droppedTail)
        try parts.encodeIfPresent(window.totalCount, forKey: .totalCount)
        try parts.encodeIfPresent(window.firstCursor, forKey: .firstCursor)
        try parts.encodeIfPresent(window.lastCursor, forKey: .lastCursor)
    }
}
