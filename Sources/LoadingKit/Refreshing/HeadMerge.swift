import Foundation

/// The default refresh merge of `Identifiable` lists: the fetched items not shown that
/// come before the last one already shown go to the head.
///
/// It hashes each fetched identifier once and looks each item shown up once in the
/// small set of fetched identifiers: linear in the items it touches.
struct HeadMerge<Content: RangeReplaceableCollection & Sendable>
where Content.Element: Identifiable {
    let pages: [Content]
    let content: Content
    let pageSize: Int?
    /// The identifiers of the items local edits removed, which the merge leaves out.
    let removed: Set<AnyHashable>

    func outcome(replacing: Bool) -> RefreshMerge<Content> {
        let fetched = pages.joined()
        guard !replacing else { return .merged(Content(fetched), .replaced) }
        guard !content.isEmpty else {
            return .merged(Content(fetched.filter { !wasRemoved($0) }), .replaced)
        }
        var fetchedIDs = Set<Content.Element.ID>()
        let unique = fetched.filter { fetchedIDs.insert($0.id).inserted }
        // One pass over the content against the small set of fetched identifiers:
        // the cost per item shown stays the same however long the list grows. An
        // item removed by an edit counts as shown — it overlaps — but is not brought
        // back.
        var present = Set<Content.Element.ID>()
        for item in content where fetchedIDs.contains(item.id) {
            present.insert(item.id)
        }
        if !removed.isEmpty {
            for item in unique where wasRemoved(item) {
                present.insert(item.id)
            }
        }
        // What is new comes before the last item shown; what follows it is older than
        // the content's head and belongs to later pages, not before the content. (An
        // item shown may lead the page — pinned, or bumped by an edit — and new items
        // still follow it.)
        let lastShown = unique.lastIndex { present.contains($0.id) }
        let newItems = unique[..<(lastShown ?? unique.endIndex)].filter {
            !present.contains($0.id)
        }
        let lastPageIsShort = pageSize.map { (pages.last?.count ?? 0) < $0 } ?? false
        guard !present.isEmpty || lastPageIsShort || newItems.isEmpty else {
            return .gap(replacement: Content(newItems))
        }
        guard !newItems.isEmpty else { return .merged(content, .none) }
        var merged = Content()
        merged.reserveCapacity(newItems.count + content.count)
        merged.append(contentsOf: newItems)
        merged.append(contentsOf: content)
        return .merged(merged, .inserted(IndexSet(integersIn: 0..<newItems.count)))
    }

    /// Whether a local edit removed `item`.
    private func wasRemoved(_ item: Content.Element) -> Bool {
        !removed.isEmpty && removed.contains(AnyHashable(item.id))
    }
}
