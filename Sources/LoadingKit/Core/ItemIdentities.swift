/// The identifiers of the items a paginated list shows, kept between pages so that
/// dropping duplicates does not hash the whole list again. Only the core's
/// main-actor code holds them.
enum ItemIdentities {
    /// Not kept: the content changed otherwise since.
    case unknown
    /// Nothing shown: the list is being built afresh.
    case none
    /// The identifiers, as a `Set` of the item's identifier type.
    case known(Any)
    /// The identifiers of items whose type is only known to be `Identifiable` when
    /// the loader runs (a generic conformer).
    case erased(Set<AnyHashable>)
}
