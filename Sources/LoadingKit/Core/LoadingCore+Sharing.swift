import LoadingKitNetworking

/// How a screen shares its webservice's stored values: it shows a stored value at once
/// when it starts on a resource, every newer stored value of that resource while it
/// shows it, and tells the other screens of the values it fetches.
extension LoadingCore {
    /// Makes the loader a subscriber to the stored value of `identity`, in place of
    /// the resource it showed before.
    ///
    /// - Parameters:
    ///   - identity: The resource whose stored value the loader shows.
    ///   - loader: The screen.
    func subscribe<Loader: Loading>(to identity: ResourceIdentity, for loader: Loader)
    where Loader.ResourceType == Value {
        if let current = subscription as? StoreSubscription<Loader>,
            current.identity == identity
        {
            return
        }
        let webservice = loader.webservice
        // Without storage there is nothing to share, but an account change still
        // clears the screen.
        guard webservice.store.limits.isEnabled || webservice.configuration.authenticator != nil
        else {
            subscription = nil
            return
        }
        let subscription = StoreSubscription(
            loader: loader,
            identity: identity,
            store: webservice.store
        )
        self.subscription = subscription
        let shared = SharedValues.of(webservice)
        shared.add(subscription, for: identity)
        if lastResource?.storedElements != nil {
            shared.addItemList(subscription)
        }
    }

    /// Shows the stored value of `resource` at once, as the content, when the state
    /// shows another resource or nothing — superseding a load in flight — so that the
    /// policy then judges its freshness. A value only persisted is read back first,
    /// stale unless its lifetime still holds. Does nothing when nothing is stored or `policy` ignores caches.
    ///
    /// - Parameters:
    ///   - resource: The resource the load begins on.
    ///   - identity: Its identity.
    ///   - policy: The load's policy.
    ///   - loader: The screen.
    func showStoredValue(
        of resource: Resource<Value>,
        identity: ResourceIdentity,
        policy: LoadPolicy,
        for loader: some Loading<Value>
    ) {
        guard !policy.ignoresCache, stateIdentity != identity else { return }
        let webservice = loader.webservice
        guard
            let entry = webservice.store.entry(for: identity)
                ?? webservice.restoredEntry(of: resource, identity: identity),
            entry.value is Value
        else {
            if webservice.store.limits.isEnabled {
                report(.storeMiss, about: identity, for: loader)
            }
            return
        }
        if cancel() {
            report(.superseded, for: loader)
        }
        report(.storeHit, about: identity, for: loader)
        forgetContentMetadata()
        stateIdentity = identity
        subscribe(to: identity, for: loader)
        // A new screen's state has nothing to clear: observers see one change, not two.
        let hadContent = current.hasContent
        if !current.isUnloaded {
            update(for: loader) { $0.reset() }
        }
        show(entry, of: webservice, for: loader)
        if hadContent, !current.hasContent {
            // The stored value was refused: the old content is gone all the same.
            loader.contentWasCleared()
        }
        // A page held for the load just superseded now finds another resource shown.
        startDeferredPages()
    }

    /// Shows the stored `entry` as the content, unless the content is that version or
    /// a later one, or ``Loading/validate(_:)`` refuses it: configures it and records
    /// it with the time it was loaded, leaving what is in flight.
    func show(_ entry: StoredEntry, of webservice: Webservice, for loader: some Loading<Value>) {
        if current.content != nil, entry.version == contentVersion {
            // The version shown, confirmed by an answer that kept it (equal, or a 304).
            confirmShown(storedAt: entry.loadedAt, of: webservice, for: loader)
            return
        }
        guard let value = entry.value as? Value,
            current.content == nil || entry.version > contentVersion ?? 0,
            show(value, storedAt: entry.loadedAt, of: webservice, for: loader)
        else { return }
        record(.storedValueShown(entry))
    }

    /// Notes when the content's stored version was confirmed again, at `storedAt` on
    /// the webservice's clock, by another screen's answer: without changing the state,
    /// as the answer changed nothing shown, so that the loader's polls count from it.
    private func confirmShown(
        storedAt: ContinuousClock.Instant,
        of webservice: Webservice,
        for loader: some Loading<Value>
    ) {
        // Only a confirmation after the one the content has: the two clocks cannot be
        // compared, so the loader's own answer must not count as a newer one.
        guard let shownAt = contentStoredAt, shownAt < storedAt else { return }
        let age = storedAt.duration(to: webservice.configuration.clock.continuousNow)
        record(
            .confirmedElsewhere(
                storedAt: storedAt,
                confirmedAt: loader.loadingClock.continuousNow.advanced(by: .zero - age)
            )
        )
    }

    /// Shows `value`, stored at `storedAt` on the webservice's clock, as the content —
    /// unless ``Loading/validate(_:)`` refuses it — as loaded that long ago on the
    /// loader's clock; returns whether it did.
    func show(
        _ value: Value,
        storedAt: ContinuousClock.Instant,
        of webservice: Webservice,
        for loader: some Loading<Value>
    ) -> Bool {
        do {
            try loader.validate(value)
        } catch {
            return false
        }
        identities = .unknown
        forgetRemovedItems()
        let empty = configureIfShown(value, for: loader)
        let age = storedAt.duration(to: webservice.configuration.clock.continuousNow)
        let loadedAt = loader.loadingClock.continuousNow.advanced(by: .zero - age)
        // Compared on the webservice's clock, which stamped both.
        let answersFailure = failedAtOnStoreClock.map { storedAt >= $0 } ?? true
        update(for: loader) {
            $0.show(value, isEmpty: empty, loadedAt: loadedAt, answersFailure: answersFailure)
        }
        return true
    }

    /// Applies the value a plain load of `identity` fetched — or the stored value, when
    /// a newer one was stored since (a mutation's change taken back, a local edit); the
    /// content is only marked current when it is that version or a later one already —
    /// and shows it to the other loaders showing the resource, in this main-actor turn.
    func applyShared(
        _ fetched: Fetched<Value>,
        of identity: ResourceIdentity,
        for loader: some Loading<Value>
    ) throws(LoadingError) {
        var fetched = fetched
        let webservice = loader.webservice
        var pins = 0
        if let version = fetched.storeVersion {
            let found = webservice.store.entry(for: identity, newerThan: version)
            pins = found.pins
            if let current = found.newer, let value = current.value as? Value {
                // Not a `304` to what is shown any more: the stored value differs from it.
                fetched = Fetched(entry: current, value: value, isNotModified: false)
            }
        }
        if let version = fetched.storeVersion, current.content != nil,
            let shown = contentVersion, version <= shown
        {
            if version == shown {
                record(
                    .storedVersionConfirmed(
                        directives: fetched.cacheDirectives,
                        storedAt: fetched.storedAt
                    )
                )
            }
            markLoaded(for: loader)
        } else {
            try apply(confirmingShown(fetched), for: loader) { (value) throws(LoadingError) in
                try applyLoaded(value, for: loader)
            }
            record(.storedVersionApplied(fetched.storeVersion, storedAt: fetched.storedAt))
        }
        record(.mirrorsStore)
        // Another loader shows the resource only when more than this one pins it —
        // counted before the value was applied: one that begins showing the resource
        // meanwhile is shown the stored value as it begins.
        if pins > 1 {
            SharedValues.of(webservice).propagate(identity, in: webservice.store)
        }
    }

    /// `fetched`, or — when it is a `304` confirming a stored version later than the one
    /// shown (a change since taken back, say) — the same value as new, so that it is
    /// shown rather than the content kept.
    private func confirmingShown(_ fetched: Fetched<Value>) -> Fetched<Value> {
        guard fetched.isNotModified, let version = fetched.storeVersion,
            let shown = contentVersion, shown < version
        else { return fetched }
        return Fetched(
            value: fetched.value,
            validators: fetched.validators,
            isNotModified: false,
            cacheDirectives: fetched.cacheDirectives
        )
    }

    /// Whether the stored value of the resource the loader shows was invalidated.
    func storedValueIsStale<Loader: Loading>(for loader: Loader) -> Bool
    where Loader.ResourceType == Value {
        guard let subscription = subscription as? StoreSubscription<Loader> else {
            return false
        }
        return loader.webservice.store.isStale(subscription.identity)
    }
}
