import Foundation
import LoadingKitNetworking

extension ContentEdit {
    /// Shows `value` in place of every item whose own resource is `identity`, as
    /// `elements` names the items' resources: each reported as
    /// ``ContentChange/removed(_:)`` then ``ContentChange/inserted(_:)`` of its index;
    /// nothing when no item is that resource's or `value` is no item.
    ///
    /// - Parameters:
    ///   - value: The element's stored value.
    ///   - identity: The element's resource.
    ///   - elements: The items of a content, each with its resource's identity.
    static func showing(
        _ value: any Sendable,
        as identity: ResourceIdentity,
        elements: @escaping @Sendable (Content) -> [StoredElement]
    ) -> ContentEdit {
        ContentEdit(
            apply: { content in
                let offsets = elements(content).enumerated().compactMap { offset, element in
                    element.identity == identity ? offset : nil
                }
                guard !offsets.isEmpty, let shown = content as? any RangeReplaceableCollection,
                    let replaced = items(shown, replacingAt: offsets, with: value) as? Content
                else { return Outcome() }
                content = replaced
                return Outcome(
                    changes: offsets.flatMap { offset in
                        [
                            ContentChange.removed(offset..<offset + 1),
                            .inserted(IndexSet(integer: offset)),
                        ]
                    }
                )
            },
            namesItems: true
        )
    }
}

/// `items` with `value` at each of `offsets`, or `nil` when `value` is not an item.
private func items<Items: RangeReplaceableCollection>(
    _ items: Items,
    replacingAt offsets: [Int],
    with value: any Sendable
) -> Items? {
    guard let item = value as? Items.Element else { return nil }
    var items = items
    for offset in offsets {
        let index = items.index(items.startIndex, offsetBy: offset)
        items.replaceSubrange(index...index, with: CollectionOfOne(item))
    }
    return items
}
