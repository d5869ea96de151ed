import LoadingKitNetworking

extension Paginating {
    /// Keeps the pages in step with a local edit of the content, which held `count`
    /// items before `changes`: each page counts the items it holds after them, and an
    /// edit naming items changes the stored pages held as well, so that a reload the
    /// server answers `304` shows them edited.
    func followEdit(
        _ edit: ContentEdit<ResourceType>,
        changes: [ContentChange],
        from count: Int
    ) {
        pagination.follow(changes, from: count, to: loadingState.content?.count ?? 0)
        guard edit.namesItems else { return }
        let webservice = self.webservice
        for cursor in pagination.heldCursors {
            let page = resource(forPage: cursor)
            _ = webservice.editStoredValue(of: page.identity, as: page) { page in
                var items = ResourceType(page.items)
                guard !edit.apply(&items).changes.isEmpty else { return false }
                page.items = Array(items)
                return true
            }
        }
    }
}
