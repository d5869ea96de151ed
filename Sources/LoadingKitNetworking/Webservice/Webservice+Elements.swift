extension Webservice {
    /// Stores the elements of `value` that `resource` names under their own resources,
    /// with the freshness of `entry`, the list's stored entry — unless a later request
    /// stored one already — and tells the loaders showing one.
    ///
    /// - Parameters:
    ///   - value: The list's value.
    ///   - resource: The list's resource, which names its elements' resources.
    ///   - entry: The list's stored entry.
    ///   - onlyMissing: Whether an element stored already is left as it is, whatever
    ///     its sequence: for a list read back from disk, as its elements may be.
    package func storeElements<A>(
        of value: A,
        from resource: Resource<A>,
        listedIn entry: StoredEntry,
        onlyMissing: Bool = false
    ) {
        guard let storedElements = resource.storedElements else { return }
        let elements = storedElements(value)
        let cost = entry.cost / max(1, elements.count)
        let sequence = entry.sequence
        store.store(elements, sequence: sequence, onlyMissing: onlyMissing) { element, version in
            StoredEntry(
                value: element.value,
                validators: nil,
                cacheFields: entry.cacheFields,
                directives: entry.directives,
                loadedAt: entry.loadedAt,
                response: ResponseSummary(statusCode: entry.response.statusCode),
                version: version,
                sequence: sequence,
                cost: cost
            )
        }
    }
}
