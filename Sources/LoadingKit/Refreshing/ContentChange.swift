import Foundation

/// What a refresh or a page did to a list, so that a view can animate just that.
///
/// ```swift
/// func didApply(_ change: ContentChange) {
///     switch change {
///     case .inserted(let indices): table.insertRows(at: indices)
///     case .appended(let range): table.insertRows(in: range)
///     case .removed(let range): table.deleteRows(in: range)
///     case .replaced: table.reloadData()
///     case .none: break
///     }
/// }
/// ```
///
/// A page that makes a bounded list drop pages at the other end is reported as two
/// changes, in order, each with indices of the list as it is when that change is
/// applied: the insertion (indices of the list with the page added), then the removal
/// (indices of that same list, before the removal).
public enum ContentChange: Sendable, Equatable {
    /// Nothing changed.
    case none
    /// Items were inserted at these indices of the new content (at the head, for a
    /// refresh or a previous page).
    case inserted(IndexSet)
    /// Items were appended at these indices (a next page).
    case appended(Range<Int>)
    /// Items were removed from these indices: pages a bounded list dropped at one end
    /// (``Paginating/maxPages``), or rows a local edit removed (``Loading/edit(_:)``).
    case removed(Range<Int>)
    /// The content was replaced as a whole.
    case replaced
}
