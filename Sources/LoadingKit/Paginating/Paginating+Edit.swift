import LoadingKitNetworking

extension Paginating {
    /// Keeps the pages in step with a local edit of the content: each page counts the
    /// items it holds after it. The editing loader also changes the stored pages held
    /// when the edit names items, so that a reload the server answers `304` shows them
    /// edited; an edit by position (an insertion, a change of the whole list) stays in
    /// the content only.
    func follow(_ applied: AppliedEdit<ResourceType>) {
        changePagination {
            $0.follow(applied.changes, from: applied.countBefore, to: applied.countAfter)
        }
        guard applied.isOwn, applied.edit.namesItems else { return }
        let webservice = self.webservice
        for cursor in currentPagination.heldCursors {
            let page = resource(forPage: cursor)
            _ = webservice.editStoredValue(of: page.identity, as: page, notifies: true) { page in
                var items = ResourceType(page.items)
                guard !applied.edit.apply(&items).changes.isEmpty else { return false }
                page.items = Array(items)
                return true
            }
        }
    }
}
