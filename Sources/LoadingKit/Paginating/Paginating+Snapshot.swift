import LoadingKitNetworking

/// A list opened again shows what it held: each change of a list's content keeps a
/// ``ListSnapshot`` of it in the webservice's store, under the list; a screen that
/// begins the list with nothing of it shown shows the snapshot as its first frame —
/// items, pages, cursors, totals — and the policy then judges it as it judges a stored
/// value: a stale one reloads the pages held, whose requests are conditional.
extension Paginating {
    /// Keeps what the list shows in the webservice's store, for the next screen that
    /// opens it.
    func keepSnapshot() {
        let core = loading
        let store = webservice.store
        guard store.limits.isEnabled, pagination.hasFirstPage,
            let items = core.current.content, let identity = core.stateIdentity,
            let loadedAt = core.current.loadedAt
        else { return }
        let age = loadedAt.duration(to: loadingClock.continuousNow)
        let storedAt = webservice.configuration.clock.continuousNow.advanced(by: .zero - age)
        let window = pagination.restorable
        let snapshot = ListSnapshot(items: items, window: window)
        let pageCost = store.entry(for: resource(forPage: nil).identity)?.cost ?? 0
        let directives = core.contentDirectives ?? CacheDirectives()
        let sequence = store.nextSequence()
        _ = store.store(
            snapshot,
            for: ListSnapshot<ResourceType, Cursor>.identity(ofList: identity),
            sequence: sequence,
            notifies: false
        ) { version in
            StoredEntry(
                value: snapshot,
                validators: nil,
                cacheFields: [:],
                directives: directives,
                loadedAt: storedAt,
                response: ResponseSummary(statusCode: 200),
                version: version,
                sequence: sequence,
                cost: pageCost * window.pagesLoaded
            )
        }
    }

    /// Forgets the list's snapshot: a screen reset starts the list over.
    func forgetSnapshot() {
        let list = listIdentity(of: resource(forPage: nil))
        webservice.store.remove(ListSnapshot<ResourceType, Cursor>.identity(ofList: list))
    }

    /// Shows the list's snapshot, when one is stored and ``Loading/validate(_:)``
    /// takes its items, in place of what the screen shows: superseding a load in
    /// flight, as a stored value does.
    ///
    /// - Parameters:
    ///   - identity: The list's identity.
    ///   - list: The list as one resource, which a reload loads again.
    func showSnapshot(of identity: ResourceIdentity, from list: Resource<ResourceType>) {
        let core = loading
        guard
            let entry = webservice.store.entry(
                for: ListSnapshot<ResourceType, Cursor>.identity(ofList: identity)
            ),
            let snapshot = entry.value as? ListSnapshot<ResourceType, Cursor>,
            (try? validate(snapshot.items)) != nil
        else { return }
        if core.cancel() {
            core.report(.superseded, for: self)
        }
        core.report(.storeHit, about: identity, for: self)
        core.forgetContentMetadata()
        if !core.current.isUnloaded {
            core.update(for: self) { $0.reset() }
        }
        guard core.show(snapshot.items, storedAt: entry.loadedAt, of: webservice, for: self)
        else { return }
        core.stateIdentity = identity
        core.lastResource = list
        core.contentDirectives = entry.directives
        core.subscribe(to: resource(forPage: nil).identity, for: self)
        changePagination { $0 = snapshot.window }
        didApply(.replaced)
        core.startDeferredPages()
    }
}
