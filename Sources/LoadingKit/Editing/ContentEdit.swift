import Foundation

/// A change a screen makes to its content through the kit — remove a row, replace an
/// item, insert one — so that the state, the stored value and every other screen
/// showing the resource change with it, and ``Loading/didApply(_:)`` hears exactly
/// which indices changed.
///
/// ```swift
/// screen.edit(.removing(id: post.id))         // a swipe to delete
/// screen.edit(.replacing(renamedPost))        // the item with the same identifier
/// screen.edit(.inserting(draft, at: 0))       // a new row at the top
/// screen.edit(.changing { $0.sort(by: \.title) })
/// ```
///
/// An edit says what the server holds now: it lasts until the server sends a new
/// value of the resource (a `304` keeps it). The stored value's answer to a request
/// sent before the edit does not undo it, and a refresh or a page — also one in
/// flight — merges with the edited content: an item removed does not come back
/// through a merge, only through a full reload that the server answers with it. A
/// load that replaces the content as a whole when it lands (a reload of a list's
/// pages, a refresh that replaces) shows what the server sent.
public struct ContentEdit<Content: Sendable>: Sendable {
    /// What an edit did to one content.
    struct Outcome {
        /// The changes, in order, each with indices of the content as it is when that
        /// change is applied.
        var changes: [ContentChange] = []
        /// The identifiers of the items removed.
        var removed: [AnyHashable] = []
        /// The identifiers of the items inserted.
        var inserted: [AnyHashable] = []
    }

    /// Applies the edit to a content.
    let apply: @Sendable (inout Content) -> Outcome
    /// Whether the edit names items by identifier, so that it applies as well to any
    /// part of the content — a page — as to the whole.
    let namesItems: Bool

    /// Changes the content with `change`, reported as ``ContentChange/replaced``.
    /// Items it removes are not remembered as removed: prefer ``removing(where:)``
    /// for those, which a later merge leaves out. `change` may run more than once.
    ///
    /// - Parameter change: Changes the content in place.
    /// - Returns: The edit.
    public static func changing(_ change: @escaping @Sendable (inout Content) -> Void)
        -> ContentEdit
    {
        ContentEdit(
            apply: { content in
                change(&content)
                return Outcome(changes: [.replaced])
            },
            namesItems: false
        )
    }
}

extension ContentEdit where Content: RangeReplaceableCollection, Content.Element: Sendable {
    /// Inserts `item` at `index` of the content — at its end when `index` is past it —
    /// reported as ``ContentChange/inserted(_:)``.
    ///
    /// - Parameters:
    ///   - item: The item.
    ///   - index: Its position in the content after the edit.
    /// - Returns: The edit.
    public static func inserting(_ item: Content.Element, at index: Int) -> ContentEdit {
        ContentEdit(
            apply: { content in
                let offset = min(max(0, index), content.count)
                content.insert(item, at: content.index(content.startIndex, offsetBy: offset))
                return Outcome(changes: [.inserted(IndexSet(integer: offset))])
            },
            namesItems: false
        )
    }
}

extension ContentEdit
where
    Content: RangeReplaceableCollection, Content.Element: Identifiable & Sendable,
    Content.Element.ID: Sendable
{
    /// Inserts `item` at `index` of the content — at its end when `index` is past it —
    /// moving it there when an item with its identifier is shown: reported as
    /// ``ContentChange/removed(_:)`` of the item shown, if any, then
    /// ``ContentChange/inserted(_:)``.
    ///
    /// - Parameters:
    ///   - item: The item.
    ///   - index: Its position in the content after the edit.
    /// - Returns: The edit.
    public static func inserting(_ item: Content.Element, at index: Int) -> ContentEdit {
        ContentEdit(
            apply: { content in
                var outcome = Outcome(inserted: [AnyHashable(item.id)])
                if let shown = content.firstIndex(where: { $0.id == item.id }) {
                    let offset = content.distance(from: content.startIndex, to: shown)
                    content.remove(at: shown)
                    outcome.changes.append(.removed(offset..<offset + 1))
                }
                let offset = min(max(0, index), content.count)
                content.insert(item, at: content.index(content.startIndex, offsetBy: offset))
                outcome.changes.append(.inserted(IndexSet(integer: offset)))
                return outcome
            },
            namesItems: false
        )
    }

    /// Removes the item with identifier `id`, reported as ``ContentChange/removed(_:)``;
    /// nothing when none is shown.
    ///
    /// - Parameter id: The item's identifier.
    /// - Returns: The edit.
    public static func removing(id: Content.Element.ID) -> ContentEdit {
        removing { $0.id == id }
    }

    /// Removes every item `predicate` picks, reported as one
    /// ``ContentChange/removed(_:)`` per run of adjacent items, the last run first.
    ///
    /// - Parameter predicate: Whether to remove an item.
    /// - Returns: The edit.
    public static func removing(
        where predicate: @escaping @Sendable (Content.Element) -> Bool
    ) -> ContentEdit {
        ContentEdit(
            apply: { content in
                var outcome = Outcome()
                var runs: [Range<Int>] = []
                for (offset, item) in content.enumerated() where predicate(item) {
                    outcome.removed.append(AnyHashable(item.id))
                    if let last = runs.last, last.upperBound == offset {
                        runs[runs.count - 1] = last.lowerBound..<offset + 1
                    } else {
                        runs.append(offset..<offset + 1)
                    }
                }
                for run in runs.reversed() {
                    let start = content.index(content.startIndex, offsetBy: run.lowerBound)
                    let end = content.index(start, offsetBy: run.count)
                    content.removeSubrange(start..<end)
                    outcome.changes.append(.removed(run))
                }
                return outcome
            },
            namesItems: true
        )
    }

    /// Replaces the item with the identifier of `item` by `item`, reported as
    /// ``ContentChange/removed(_:)`` then ``ContentChange/inserted(_:)`` of its index;
    /// nothing when none is shown.
    ///
    /// - Parameter item: The new item.
    /// - Returns: The edit.
    public static func replacing(_ item: Content.Element) -> ContentEdit {
        ContentEdit(
            apply: { content in
                guard let shown = content.firstIndex(where: { $0.id == item.id }) else {
                    return Outcome()
                }
                let offset = content.distance(from: content.startIndex, to: shown)
                content.replaceSubrange(shown...shown, with: CollectionOfOne(item))
                return Outcome(
                    changes: [.removed(offset..<offset + 1), .inserted(IndexSet(integer: offset))]
                )
            },
            namesItems: true
        )
    }
}
