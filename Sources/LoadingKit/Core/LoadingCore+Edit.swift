import LoadingKitNetworking

/// How a local edit reaches everything that shows the content: the state, the stored
/// value of the resource, and the other screens showing it.
extension LoadingCore {
    /// Applies `edit` to the content — configuring it and reporting each change — and,
    /// when `sharing`, to the stored value and the other screens showing the resource.
    /// Returns whether the content changed.
    func edit<Loader: Loading>(_ edit: ContentEdit<Value>, sharing: Bool, for loader: Loader)
        -> Bool
    where Loader.ResourceType == Value {
        guard var content = current.content else { return false }
        let before = (content as? any Collection)?.count ?? 0
        let outcome = edit.apply(&content)
        guard !outcome.changes.isEmpty else { return false }
        noteEdit(removed: outcome.removed, inserted: outcome.inserted)
        Loader.kind.edited(
            loader,
            AppliedEdit(
                edit: edit,
                changes: outcome.changes,
                countBefore: before,
                countAfter: (content as? any Collection)?.count ?? 0,
                isOwn: sharing
            )
        )
        let empty = configureIfShown(content, for: loader)
        update(for: loader) { $0.edit(content, isEmpty: empty) }
        for change in outcome.changes {
            loader.didApply(change)
        }
        if sharing {
            share(edit, for: loader)
        }
        return true
    }

    /// Applies `edit` to the stored value of the resource the loader shows, and to the
    /// other screens showing it, in this main-actor turn.
    private func share<Loader: Loading>(_ edit: ContentEdit<Value>, for loader: Loader)
    where Loader.ResourceType == Value {
        guard let subscription = subscription as? StoreSubscription<Loader> else {
            return
        }
        let identity = subscription.identity
        let webservice = loader.webservice
        let edited = webservice.editStoredValue(of: identity, as: lastResource) {
            (value: inout Value) in !edit.apply(&value).changes.isEmpty
        }
        if let edited, mirrorsStoredValue {
            adopt(edited, for: loader)
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
    func adopt(_ edited: EditedEntry, for loader: some Loading<Value>) {
        if contentVersion == edited.previousVersion {
            record(.edited(version: edited.entry.version))
        } else {
            show(edited.entry, of: loader.webservice, for: loader)
        }
    }
}
