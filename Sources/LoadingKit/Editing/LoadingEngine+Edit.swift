import LoadingKitNetworking

/// How a local edit reaches everything that shows the content: the state, the stored
/// value of the resource, and the other loaders showing it.
extension LoadingEngine {
    /// Applies `edit` to the content — configuring it and reporting each change — and,
    /// when `sharing`, to the stored value and the other loaders showing the resource.
    /// Returns whether the content changed.
    func edit(_ edit: ContentEdit<Value>, sharing: Bool) -> Bool {
        guard var content = loader.loadingState.content else { return false }
        let before = (content as? any Collection)?.count ?? 0
        let outcome = edit.apply(&content)
        guard !outcome.changes.isEmpty else { return false }
        let core = self.core
        core.noteEdit(removed: outcome.removed, inserted: outcome.inserted)
        Loader.loadingLifecycle.edited(
            loader,
            AppliedEdit(
                edit: edit,
                changes: outcome.changes,
                countBefore: before,
                countAfter: (content as? any Collection)?.count ?? 0,
                isOwn: sharing
            )
        )
        let empty = configureIfShown(content)
        update { $0.edit(content, isEmpty: empty) }
        for change in outcome.changes {
            loader.didApply(change)
        }
        if sharing {
            share(edit)
        }
        return true
    }

    /// Applies `edit` to the stored value of the resource the loader shows, and to the
    /// other loaders showing it, in this main-actor turn.
    private func share(_ edit: ContentEdit<Value>) {
        let core = self.core
        guard let subscription = core.subscription as? StoreSubscription<Loader> else {
            return
        }
        let identity = subscription.identity
        let webservice = loader.webservice
        let edited = webservice.editStoredValue(of: identity, as: core.lastResource) {
            (value: inout Value) in !edit.apply(&value).changes.isEmpty
        }
        if let edited, core.mirrorsStoredValue {
            adopt(edited)
        }
        if webservice.store.pinCount(of: identity) > 1 {
            SharedValues.of(webservice).apply(
                edit,
                to: identity,
                stored: edited,
                from: subscription
            )
        }
    }

    /// Makes the content, which mirrors the stored value and was just edited like it,
    /// the edited entry's version — or, when the content was behind the version the
    /// edit changed (a stored value on its way to the loader), shows the entry.
    func adopt(_ edited: EditedEntry) {
        if core.contentVersion == edited.previousVersion {
            core.contentVersion = edited.entry.version
        } else {
            show(edited.entry, of: loader.webservice)
        }
    }
}
