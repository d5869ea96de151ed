import LoadingKitNetworking

/// What a paginated list showed — its items and its window of pages, with their
/// cursors and totals — kept in the webservice's store under the list, so that the
/// next screen opening the list shows it as its first frame and revalidates the
/// pages held instead of starting from the first page.
struct ListSnapshot<Items: Sendable, Cursor: Sendable>: Sendable {
    /// The content, every page held.
    let items: Items
    /// The window of pages, without what failed or waited.
    let window: PaginationState<Cursor>

    /// The identity a snapshot of the list of `identity` is stored under.
    static func identity(ofList identity: ResourceIdentity) -> ResourceIdentity {
        identity.listed(as: Self.self, by: "window")
    }
}
