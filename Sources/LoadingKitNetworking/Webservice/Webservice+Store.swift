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
        store.invalidate(invalidation)
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

    /// How many values the webservice keeps.
    public var storedValueCount: Int { store.count }

    /// The estimated bytes of the values the webservice keeps.
    public var storedValueCost: Int { store.totalCost }
}
