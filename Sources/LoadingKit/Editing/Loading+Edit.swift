import LoadingKitNetworking

extension Loading {
    /// Changes the content through the kit: the state, the stored value of the resource
    /// shown and every other screen showing it change together, in this main-actor
    /// turn, each configured with its new content and told the exact changes through
    /// ``didApply(_:)``.
    ///
    /// ```swift
    /// func delete(_ post: Post) {
    ///     screen.edit(.removing(id: post.id))
    ///     screen.startSending(Mutation(Post.delete(id: post.id)))
    /// }
    /// ```
    ///
    /// A ``Paginating`` list keeps its pages in step with the edit; a refresh or a page
    /// that follows merges with the edited content, without bringing back an item it
    /// removed. With nothing shown, there is nothing to edit.
    ///
    /// - Parameter edit: The change.
    /// - Returns: Whether the content changed.
    @discardableResult
    public func edit(_ edit: ContentEdit<ResourceType>) -> Bool {
        loading.edit(edit, sharing: true, for: self)
    }
}
