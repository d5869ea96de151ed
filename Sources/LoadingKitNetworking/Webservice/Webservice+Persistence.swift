import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// How a webservice keeps values across launches in its ``ResourceStore``: a `GET`
/// of a `Codable` value whose parse has a stable name is written in the background once
/// stored, with the freshness lifetime its response gave; a load that finds nothing in
/// memory reads it back — a loader where its load begins, so that the value shows in
/// the first frame — fresh while that lifetime lasts and nothing since may have changed
/// it (an invalidation, a mutation, a `304` that shortened it), else stale, and asks
/// the server whether it changed.
extension Webservice {
    /// Where one resource's value is kept across launches.
    struct Persistence {
        let store: any ResourceStore
        let key: String
    }

    /// Where `resource`'s value is kept across launches, when it may be: a `GET`, not
    /// ignoring caches, of a `Codable` value with a stably named parse, and without
    /// credentials — an authenticator's, or in what is sent: the URL's user or
    /// password, a query item or a header field with a credential's name, its own or
    /// the transport's — unless the configuration allows them; then under the account
    /// signed in, and not at all when none is.
    func persistence<A>(of resource: Resource<A>, identity: ResourceIdentity) -> Persistence? {
        let authenticator = configuration.authenticator
        guard let store = configuration.persistentStore, resource.method == .get,
            !resource.ignoresCache, A.self is any Decodable.Type, A.self is any Encodable.Type,
            configuration.persistsCredentialedRequests
                || (authenticator == nil
                    && !configuration.credentials.areCarried(
                        by: resource.request,
                        with: transport.addedHeaderFields
                    )),
            let key = identity.persistentKey(valueTypeName: String(reflecting: A.self))
        else { return nil }
        guard let authenticator else { return Persistence(store: store, key: key) }
        guard let account = authenticator.credential?.account else { return nil }
        return Persistence(store: store, key: key + "\u{1F}account \(account)")
    }

    /// The persisted value of `resource`, read into memory, for a loader that
    /// starts on it and shows it at once — when its store is quick to read; `nil` when
    /// nothing is persisted for it or it may not be.
    ///
    /// - Parameters:
    ///   - resource: The resource the loader starts on.
    ///   - identity: Its identity.
    /// - Returns: The restored entry, or `nil`.
    package func restoredEntry<A: Sendable>(
        of resource: Resource<A>,
        identity: ResourceIdentity
    ) -> StoredEntry? {
        guard store.limits.isEnabled, configuration.persistentStore?.isQuickToRead == true,
            let persistence = persistence(of: resource, identity: identity)
        else { return nil }
        return restore(A.self, from: persistence, for: identity, notifies: false)
    }

    /// Reads the persisted value of `identity` into memory — fresh while its freshness
    /// lifetime lasts, else stale — telling the loaders showing it when `notifies` is
    /// `true`; returns its entry. A record that does not decode is removed.
    func restore<A: Sendable>(
        _ type: A.Type,
        from persistence: Persistence,
        for identity: ResourceIdentity,
        notifies: Bool = true
    ) -> StoredEntry? {
        guard let record = persistence.store.record(forKey: persistence.key) else { return nil }
        guard let decodable = A.self as? any Decodable.Type,
            let value = (try? JSONDecoder().decode(decodable, from: record.body)) as? A
        else {
            persistence.store.removeRecord(forKey: persistence.key)
            return nil
        }
        let elapsed = configuration.clock.dateNow.timeIntervalSince(record.storedAt)
        let age = Duration.seconds(elapsed.isFinite ? max(0, elapsed) : 0)
        let loadedAt = configuration.clock.continuousNow.advanced(by: .zero - age)
        // A record from the future — the clock was set back — is trusted no longer, nor
        // one written before what it holds may have changed.
        let lifetime =
            elapsed.isFinite && elapsed >= 0
            ? record.freshnessLifetime.flatMap { age < $0 ? $0 : nil } : nil
        let isFresh =
            lifetime != nil && record.storedAt > staleBefore(in: persistence.store)
        return store.store(value, for: identity, sequence: 0, notifies: notifies) { version in
            StoredEntry(
                value: value,
                validators: Validators(
                    entityTag: record.entityTag,
                    lastModified: record.lastModified
                ),
                cacheFields: [:],
                directives: CacheDirectives(freshnessLifetime: isFresh ? lifetime : nil),
                loadedAt: loadedAt,
                response: ResponseSummary(statusCode: 200),
                isStale: !isFresh,
                version: version,
                sequence: 0,
                cost: record.body.count
            )
        }
    }

    /// Writes `value` with `validators` in the background — unless another write or a
    /// removal of the same key is asked for before it runs: a value stored five times
    /// in a burst is encoded once. With `directives`, the value received at
    /// `receivedAt` (by default now) is read back fresh for as long as they say.
    func persist<A: Sendable>(
        _ value: A,
        validators: Validators?,
        directives: CacheDirectives? = nil,
        receivedAt: Date? = nil,
        to persistence: Persistence
    ) {
        let lifetime =
            directives?.requiresRevalidation == false ? directives?.freshnessLifetime : nil
        if lifetime != nil {
            // Read, or kept from now on, before a value that may read back fresh.
            _ = staleBefore(in: persistence.store)
        }
        let storedAt = receivedAt ?? configuration.clock.dateNow
        let turn = nextPersistenceTurn(of: persistence.key)
        persistenceQueue.async { [persistenceTurns] in
            guard persistenceTurns.withLock({ $0[persistence.key] == turn }),
                let encodable = value as? any Encodable,
                let body = try? JSONEncoder().encode(encodable)
            else { return }
            persistence.store.store(
                PersistedRecord(
                    body: body,
                    entityTag: validators?.entityTag,
                    lastModified: validators?.lastModified,
                    storedAt: storedAt,
                    freshnessLifetime: lifetime
                ),
                forKey: persistence.key
            )
        }
    }

    /// The key of the record whose date is the one before which every persisted value
    /// reads back stale: no resource's key, which begins with its method.
    static let staleBeforeKey = "\u{1F}stale before"

    /// The date up to which every persisted value of `store` reads back stale, read
    /// once. A store that has none — a new one, or one that lost it — trusts nothing
    /// written before this launch began using it: it keeps a millisecond before now.
    private func staleBefore(in store: any ResourceStore) -> Date {
        persistedStaleBefore.withLock { read in
            if let date = read ?? nil {
                return date
            }
            if let date = store.record(forKey: Self.staleBeforeKey)?.storedAt {
                read = date
                return date
            }
            let before = configuration.clock.dateNow.addingTimeInterval(-0.001)
            read = before
            keep(staleBefore: before, in: store)
            return before
        }
    }

    /// Makes every value persisted up to now read back stale, in this launch and the
    /// next ones: an invalidation, a mutation or an answer may have changed what is on
    /// disk, which keeps its lifetime.
    func markPersistedValuesStale() {
        guard let store = configuration.persistentStore else { return }
        let now = configuration.clock.dateNow
        persistedStaleBefore.withLock { $0 = .some(now) }
        keep(staleBefore: now, in: store)
    }

    /// Writes `date` as the one up to which `store`'s values read back stale, in the
    /// background, after the writes before.
    private func keep(staleBefore date: Date, in store: any ResourceStore) {
        persistenceQueue.async {
            store.store(PersistedRecord(body: Data(), storedAt: date), forKey: Self.staleBeforeKey)
        }
    }

    /// Forgets the persisted value, in the background, after the writes before.
    func forgetPersisted(_ persistence: Persistence) {
        _ = nextPersistenceTurn(of: persistence.key)
        persistenceQueue.async {
            persistence.store.removeRecord(forKey: persistence.key)
        }
    }

    /// Numbers a new write or removal of `key`, the last asked for.
    private func nextPersistenceTurn(of key: String) -> UInt64 {
        persistenceTurns.withLock { turns in
            let turn = (turns[key] ?? 0) + 1
            turns[key] = turn
            return turn
        }
    }

    /// Writes `value`, which a refinement keeps in the store under `identity` (a list's
    /// snapshot), to the persistent store in the background — when `resource`'s value
    /// may be persisted, as for any value.
    ///
    /// - Parameters:
    ///   - value: The value kept.
    ///   - resource: The resource of the value, whose request decides.
    ///   - identity: The identity it is kept under.
    ///   - directives: What the value's response said of reusing it.
    ///   - age: How long ago it was received.
    package func persist<A: Sendable>(
        _ value: A,
        of resource: Resource<A>,
        identity: ResourceIdentity,
        directives: CacheDirectives,
        age: Duration
    ) {
        guard let persistence = persistence(of: resource, identity: identity) else { return }
        let seconds = Double(age.components.seconds) + Double(age.components.attoseconds) / 1e18
        persist(
            value,
            validators: nil,
            directives: directives,
            receivedAt: configuration.clock.dateNow.addingTimeInterval(-seconds),
            to: persistence
        )
    }

    /// Whether a value of `resource` may be written to the persistent store: there is
    /// one, and the request carries no credential it may not keep.
    ///
    /// - Parameter resource: The resource whose request decides.
    /// - Returns: Whether its value may be persisted.
    package func mayPersist<A>(_ resource: Resource<A>) -> Bool {
        persistence(of: resource, identity: resource.identity) != nil
    }

    /// Forgets, in the background, the value persisted under `identity` for `resource`
    /// (a list's snapshot), if any.
    ///
    /// - Parameters:
    ///   - resource: The resource of the value, whose request names the record.
    ///   - identity: The identity it is kept under.
    package func forgetPersisted<A>(of resource: Resource<A>, identity: ResourceIdentity) {
        guard let persistence = persistence(of: resource, identity: identity) else { return }
        forgetPersisted(persistence)
    }

    /// Runs `hook` on the main actor each time ``persistPendingValues()`` is called,
    /// before it waits: it keeps, and persists, what the screens hold beside the store.
    ///
    /// - Parameter hook: Keeps what the screens hold.
    package func beforePersistingPendingValues(_ hook: @escaping @MainActor @Sendable () -> Void) {
        persistenceHooks.withLock { $0.append(hook) }
    }

    /// Waits until every value stored so far is written to the persistent store — before
    /// the app is suspended, say. The lists on screen are written too, as they show.
    public func persistPendingValues() async {
        let hooks = persistenceHooks.withLock { $0 }
        if configuration.persistentStore != nil, !hooks.isEmpty {
            await MainActor.run {
                for hook in hooks {
                    hook()
                }
            }
        }
        await withCheckedContinuation { continuation in
            persistenceQueue.async { continuation.resume() }
        }
    }
}
