import LoadingKitNetworking

/// A list opened again shows what it held. A list keeps a ``ListSnapshot`` of its
/// items and window in the webservice's store — and on disk, as any value of its pages'
/// requests would be — when its view disappears, when another screen opens it, and
/// when the app persists its pending values; a screen that begins the list with
/// nothing of it shown shows the snapshot as its first frame (unless it holds more
/// pages than the screen's ``Paginating/maxPages``), and the policy then judges it as
/// it judges a stored value: a stale one (invalidated, or read back from disk past the
/// shortest lifetime of its pages) reloads the pages held, whose requests are
/// conditional.
extension Paginating {
    private typealias Snapshot = ListSnapshot<ResourceType, Cursor>

    /// The snapshot of the list whose first page is `first`, as a resource: the first
    /// page's request, which decides whether it may be persisted.
    private func snapshotResource(
        of first: Resource<Page<ResourceType.Element, Cursor>>
    ) -> Resource<Snapshot> {
        listResource(of: first).listed(by: Snapshot.key) { items in
            Snapshot(items: items, window: PaginationState())
        }
    }

    /// Keeps what the list shows in the webservice's store, and on disk when every
    /// page of it may be, for the next screen that opens it; returns whether it did.
    /// A list showing no pages of its own, or rows an optimistic change holds, keeps
    /// nothing; one whose head page is no longer stored — a `no-store` answer, values
    /// removed at sign-out — forgets what it kept before.
    @discardableResult
    func keepSnapshot() -> Bool {
        let core = loading
        let store = webservice.store
        let first = resource(forPage: nil)
        let identity = listIdentity(of: first)
        guard store.limits.isEnabled, currentPagination.hasFirstPage,
            core.stateIdentity == identity,
            !core.current.isPreviousContent,
            (core.subscription as? StoreSubscription<Self>)?.showsItemChanges != true,
            let items = core.current.content, let loadedAt = core.current.loadedAt
        else { return false }
        let head = resource(forPage: currentPagination.headCursor)
        guard let headPage = store.entry(for: head.identity),
            core.contentDirectives?.forbidsStoring != true
        else {
            forgetSnapshot()
            return false
        }
        let age = loadedAt.duration(to: loadingClock.continuousNow)
        let storedAt = webservice.configuration.clock.continuousNow.advanced(by: .zero - age)
        let window = currentPagination.restorable(holding: items.count)
        let snapshot = Snapshot(items: items, window: window)
        let directives = core.contentDirectives ?? CacheDirectives()
        let sequence = store.nextSequence()
        let snapshotIdentity = Snapshot.identity(ofList: identity)
        let kept = store.store(
            snapshot,
            for: snapshotIdentity,
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
                cost: headPage.cost * window.pagesLoaded
            )
        }
        guard kept != nil else { return false }
        // On disk only when no page of it carries a credential it may not keep there.
        let onDisk = snapshotResource(of: first)
        if window.cursors.allSatisfy({ webservice.mayPersist(resource(forPage: $0)) }) {
            webservice.persist(
                snapshot,
                of: onDisk,
                identity: snapshotIdentity,
                directives: CacheDirectives(freshnessLifetime: freshness(of: window)),
                age: .zero
            )
        } else {
            webservice.forgetPersisted(of: onDisk, identity: snapshotIdentity)
        }
        return true
    }

    /// How long every page `window` holds stays fresh from now, as the stored entries
    /// of the pages say; `nil` — the list reads back stale — when one is not stored,
    /// is stale or says no lifetime, or the list shows local edits.
    private func freshness(of window: PaginationState<Cursor>) -> Duration? {
        guard loading.editCount == 0, loading.removedItems.isEmpty else { return nil }
        let now = webservice.configuration.clock.continuousNow
        var shortest: Duration?
        for page in window.pages {
            guard let entry = webservice.store.entry(for: resource(forPage: page.cursor).identity),
                !entry.isStale, !entry.directives.requiresRevalidation,
                let lifetime = entry.directives.freshnessLifetime
            else { return nil }
            let left = lifetime - entry.loadedAt.duration(to: now)
            guard left > .zero else { return nil }
            shortest = min(shortest ?? left, left)
        }
        return shortest
    }

    /// Forgets the list's snapshot, in memory and on disk: a screen reset starts the
    /// list over.
    func forgetSnapshot() {
        let first = resource(forPage: nil)
        let snapshotIdentity = Snapshot.identity(ofList: listIdentity(of: first))
        webservice.store.remove(snapshotIdentity)
        webservice.forgetPersisted(of: snapshotResource(of: first), identity: snapshotIdentity)
    }

    /// Shows the list's snapshot — from a screen showing the list now, kept in memory,
    /// or read back from disk — when ``Loading/validate(_:)`` takes its items, in place
    /// of what the screen shows: superseding a load in flight, as a stored value does.
    ///
    /// - Parameters:
    ///   - identity: The list's identity.
    ///   - first: The list's first page.
    func showSnapshot(
        of identity: ResourceIdentity,
        first: Resource<Page<ResourceType.Element, Cursor>>
    ) {
        // Without a store nothing is kept: no screen is asked, nothing is read back.
        guard webservice.store.limits.isEnabled else { return }
        let core = loading
        let snapshotIdentity = Snapshot.identity(ofList: identity)
        SharedValues.of(webservice).keepSnapshot(ofList: first.identity)
        let kept = webservice.store.entry(for: snapshotIdentity)
        guard
            let entry = kept
                ?? webservice.restoredEntry(
                    of: snapshotResource(of: first),
                    identity: snapshotIdentity
                ),
            let snapshot = entry.value as? Snapshot,
            snapshot.window.itemCount == snapshot.items.count,
            snapshot.window.pagesLoaded <= maxPages ?? .max,
            (try? validate(snapshot.items)) != nil
        else { return }
        if core.cancel() {
            core.report(.superseded, for: self)
        }
        core.report(.storeHit, about: identity, for: self)
        core.forgetContentMetadata()
        let hadContent = core.current.hasContent
        if !core.current.isUnloaded {
            core.update(for: self) { $0.reset() }
        }
        guard core.show(snapshot.items, storedAt: entry.loadedAt, of: webservice, for: self)
        else {
            // Refused: the old content is gone all the same.
            if hadContent { contentWasCleared() }
            return
        }
        core.stateIdentity = identity
        core.lastResource = listResource(of: first)
        // Read back from disk still fresh: its items are known as its pages' answers
        // would have made them, for the screens of each.
        if kept == nil, !entry.isStale, let listing = core.lastResource?.storedElements {
            webservice.store(listing(snapshot.items), listedIn: entry, onlyMissing: true)
        }
        // Read back stale from disk, or invalidated since: shown, and revalidated.
        core.record(
            .freshness(
                entry.isStale ? CacheDirectives(requiresRevalidation: true) : entry.directives
            )
        )
        core.subscribe(to: first.identity, for: self)
        changePagination { $0 = snapshot.window }
        didApply(.replaced)
        core.startDeferredPages()
    }
}
