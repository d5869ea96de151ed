import Foundation

/// What a refresh or a page did to a list, so that a view can animate just that.
///
/// ```swift
/// func didApply(_ change: ContentChange) {
///     switch change {
///     case .inserted(let indices): table.insertRows(at: indices)
///     case .appended(let range): table.insertRows(in: range)
///     case .replaced: table.reloadData()
///     case .none: break
///     }
/// }
/// ```
public enum ContentChange: Sendable, Equatable {
    /// Nothing changed.
    case none
    /// Items were inserted at these indices of the new content (at the head, for a
    /// refresh).
    case inserted(IndexSet)
    /// Items were appended at these indices (a next page).
    case appended(Range<Int>)
    /// The content was replaced as a whole.
    case replaced
}
