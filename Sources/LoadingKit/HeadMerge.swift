import Foundation

/// The default refresh merge of `Identifiable` lists: new items go to the head.
///
/// It hashes the identifiers of the content once and of each fetched item once:
/// linear in the items it touches.
struct HeadMerge<Content: RangeReplaceableCollection & Sendable>
where Content.Element: Identifiable {
    let pages: [Content]
    let content: Content
    let pageSize: Int?

    func outcome(replacing: Bool) -> RefreshMerge<Content> {
        let fetched = pages.joined()
        guard !replacing, !content.isEmpty else {
            return .merged(Content(fetched), .replaced)
        }
        let present = Set(content.lazy.map(\.id))
        var seen = Set<Content.Element.ID>()
        var newItems: [Content.Element] = []
        var overlaps = false
        for item in fetched where seen.insert(item.id).inserted {
            if present.contains(item.id) {
                overlaps = true
            } else {
                newItems.append(item)
            }
        }
        let lastPageIsShort = pageSize.map { (pages.last?.count ?? 0) < $0 } ?? false
        guard overlaps || lastPageIsShort || newItems.isEmpty else {
            return .gap(replacement: Content(newItems))
        }
        guard !newItems.isEmpty else { return .merged(content, .none) }
        var merged = Content()
        merged.reserveCapacity(newItems.count + content.count)
        merged.append(contentsOf: newItems)
        merged.append(contentsOf: content)
        return .merged(merged, .inserted(IndexSet(integersIn: 0..<newItems.count)))
    }
}
