import LoadingKitNetworking

/// How a loader shares its webservice's stored values: it shows a stored value at once
/// when it starts on a resource, every newer stored value of that resource while it
/// shows it, and tells the other loaders of the values it fetches.
extension LoadingEngine {
    /// Makes the loader a subscriber to the stored value of `identity`, in place of
    /// the resource it showed before.
    ///
    /// - Parameters:
    ///   - identity: The resource whose stored value the loader shows.
    ///   - core: The loader's core, which holds the subscription.
    func subscribe(to identity: ResourceIdentity, in core: LoadingCore<Value>) {
        if let current = core.subscription as? StoreSubscription<Loader>,
            current.identity == identity
        {
            return
        }
        let webservice = loader.webservice
        guard webservice.store.limits.isEnabled else {
            core.subscription = nil
            return
        }
        let subscription = StoreSubscription(
            loader: loader,
            identity: identity,
            store: webservice.store
        )
        core.subscription = subscription
        let shared = SharedValues.of(webservice)
        shared.add(subscription, for: identity)
        if core.lastResource?.storedElements != nil {
            shared.addItemList(subscription)
        }
    }

    /// Shows the stored value of `resource` at once, as the content, when the state
    /// shows another resource or nothing — superseding a load in flight — so that the
    /// policy then judges its freshness. A value only persisted is read back first,
    /// stale. Does nothing when nothing is stored or `policy` ignores caches.
    ///
    /// - Parameters:
    ///   - resource: The resource the load begins on.
    ///   - identity: Its identity.
    ///   - policy: The load's policy.
    ///   - core: The loader's core.
    func showStoredValue(
        of resource: Resource<Value>,
        identity: ResourceIdentity,
        policy: LoadPolicy,
        in core: LoadingCore<Value>
    ) {
        guard !policy.ignoresCache, core.stateIdentity != identity else { return }
        let webservice = loader.webservice
        guard
            let entry = webservice.store.entry(for: identity)
                ?? webservice.restoredEntry(of: resource, identity: identity),
            entry.value is Value
        else {
            if webservice.store.limits.isEnabled {
                report(.storeMiss, about: identity)
            }
            return
        }
        if core.cancel() {
            report(.superseded)
        }
        report(.storeHit, about: identity)
        core.forgetContentMetadata()
        core.stateIdentity = identity
        subscribe(to: identity, in: core)
        // A new screen's state has nothing to clear: observers see one change, not two.
        if !loader.loadingState.isUnloaded {
            update { $0.reset() }
        }
        show(entry, of: webservice)
        // A page held for the load just superseded now finds another resource shown.
        core.startDeferredPages()
    }

    /// Shows the stored `entry` as the content, unless the content is that version or
    /// a later one, or ``Loading/validate(_:)`` refuses it: configures it and records
    /// it with the time it was loaded, leaving what is in flight.
    func show(_ entry: StoredEntry, of webservice: Webservice) {
        let core = self.core
        guard let value = entry.value as? Value,
            loader.loadingState.content == nil || entry.version > core.contentVersion ?? 0
        else { return }
        do {
            try loader.validate(value)
        } catch {
            return
        }
        core.identities = .unknown
        core.forgetRemovedItems()
        let empty = configureIfShown(value)
        let age = entry.loadedAt.duration(to: webservice.configuration.clock.continuousNow)
        let loadedAt = loader.loadingClock.continuousNow.advanced(by: .zero - age)
        update { $0.show(value, isEmpty: empty, loadedAt: loadedAt) }
        core.contentValidators = entry.validators
        core.contentDirectives = entry.directives
        core.contentVersion = entry.version
        core.mirrorsStoredValue = true
    }

    /// Applies the value a plain load of `identity` fetched — or the stored value, when
    /// a newer one was stored since (a mutation's change taken back, a local edit); the
    /// content is only marked current when it is that version or a later one already —
    /// and shows it to the other loaders showing the resource, in this main-actor turn.
    func applyShared(
        _ fetched: Fetched<Value>,
        of identity: ResourceIdentity
    ) throws(LoadingError) {
        let core = self.core
        var fetched = fetched
        if let version = fetched.storeVersion,
            let current = loader.webservice.store.entry(for: identity, newerThan: version),
            let value = current.value as? Value
        {
            // Not a `304` to what is shown any more: the stored value differs from it.
            fetched = Fetched(entry: current, value: value, isNotModified: false)
        }
        if let version = fetched.storeVersion, loader.loadingState.content != nil,
            let shown = core.contentVersion, version <= shown
        {
            if version == shown {
                core.contentDirectives = fetched.cacheDirectives
            }
            markLoaded()
        } else {
            try apply(confirmingShown(fetched)) { (value) throws(LoadingError) in
                try applyLoaded(value)
            }
            core.contentVersion = fetched.storeVersion
        }
        core.mirrorsStoredValue = true
        let webservice = loader.webservice
        // Another loader shows the resource only when more than this one pins it.
        if fetched.storeVersion != nil, webservice.store.pinCount(of: identity) > 1 {
            SharedValues.of(webservice).propagate(identity, in: webservice.store)
        }
    }

    /// `fetched`, or — when it is a `304` confirming a stored version later than the one
    /// shown (a change since taken back, say) — the same value as new, so that it is
    /// shown rather than the content kept.
    private func confirmingShown(_ fetched: Fetched<Value>) -> Fetched<Value> {
        guard fetched.isNotModified, let version = fetched.storeVersion,
            let shown = core.contentVersion, shown < version
        else { return fetched }
        return Fetched(
            value: fetched.value,
            validators: fetched.validators,
            isNotModified: false,
            cacheDirectives: fetched.cacheDirectives
        )
    }

    /// Whether the stored value of the resource the loader shows was invalidated.
    var storedValueIsStale: Bool {
        guard let subscription = core.subscription as? StoreSubscription<Loader> else {
            return false
        }
        return loader.webservice.store.isStale(subscription.identity)
    }
}
