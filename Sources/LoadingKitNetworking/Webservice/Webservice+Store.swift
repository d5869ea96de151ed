extension Webservice {
    /// What the webservice keeps of `resource`, or `nil` when it keeps nothing.
    ///
    /// - Parameter resource: The resource.
    /// - Returns: The stored value and what its response said.
    public func storedValue<A: Sendable>(for resource: Resource<A>) -> StoredValue<A>? {
        store.entry(for: resource.identity).flatMap(StoredValue.init)
    }

    /// Marks the stored values `invalidation` covers as stale. Live loaders showing one
    /// reload it in the background — once per resource, however many show it — and the
    /// others load it when next asked to load if needed. Callable from any context.
    ///
    /// ```swift
    /// webservice.invalidate(.prefix(URL(string: "https://api.example.com/posts")!))
    /// ```
    ///
    /// - Parameter invalidation: Which resources.
    /// - Returns: How many stored values it covered.
    @discardableResult
    public func invalidate(_ invalidation: Invalidation) -> Int {
        // What is on disk keeps its lifetime: read back stale from now on.
        markPersistedValuesStale()
        return store.invalidate(invalidation)
    }

    /// Forgets every stored value and its validators, so that no later load is answered
    /// from them. Call it when the account changes: cookies the session sets by itself
    /// and credentials a transport of your own adds are not part of a resource's
    /// identity, so a value stored for the previous account could otherwise answer a
    /// `304` for the next. The persistent store, if any, is emptied too. Loads in
    /// flight are not affected; loaders keep what they show.
    ///
    /// ```swift
    /// func signOut() { webservice.removeStoredValues() }
    /// ```
    public func removeStoredValues() {
        store.removeAll()
        if let persistentStore = configuration.persistentStore {
            persistenceQueue.async { persistentStore.removeAll() }
        }
    }

    /// Changes the stored value of `identity`, when it is an `A`, with `change` — a
    /// local edit, which returns whether it changed the value — keeping the changes of
    /// mutations in flight on top. The edit counts as newer than every request sent
    /// before it, whose answers then do not undo it; it is persisted when `resource`'s
    /// value is. The loaders are told when `notifies` is `true`; otherwise the editing
    /// loader tells them. `change` runs again when another value came in while it ran.
    ///
    /// - Returns: The entry before and after the edit, or `nil` when nothing changed.
    package func editStoredValue<A: Sendable>(
        of identity: ResourceIdentity,
        as resource: Resource<A>?,
        notifies: Bool = false,
        _ change: (inout A) -> Bool
    ) -> EditedEntry? {
        // The change runs outside the store's lock; it applies when no other value came
        // in meanwhile, and is computed again on the one that did.
        while let read = store.entry(for: identity), var value = read.base as? A {
            guard change(&value) else { return nil }
            guard
                let edited = store.apply(
                    .edited(value: value, sequence: store.nextSequence()),
                    to: identity,
                    notifies: notifies,
                    if: { $0.version == read.version }
                )
            else { continue }
            if let resource, let persistence = persistence(of: resource, identity: identity) {
                persist(value, validators: edited.validators, to: persistence)
            }
            return EditedEntry(previousVersion: read.version, entry: edited)
        }
        return nil
    }

    /// How many values the webservice keeps.
    public var storedValueCount: Int { store.count }

    /// The estimated bytes of the values the webservice keeps.
    public var storedValueCost: Int { store.totalCost }
}
