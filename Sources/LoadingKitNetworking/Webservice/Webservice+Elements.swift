extension Webservice {
    /// Stores `elements`, the rows of a list, under their own resources, with the
    /// freshness of `entry`, the list's stored entry — unless a later request stored
    /// one already — and tells the loaders showing one.
    ///
    /// - Parameters:
    ///   - elements: The rows, as the list's resource names them.
    ///   - entry: The list's stored entry.
    ///   - onlyMissing: Whether a row stored already is left as it is, whatever its
    ///     sequence: for a list read back from disk, as its rows may be.
    package func store(
        _ elements: [StoredElement],
        listedIn entry: StoredEntry,
        onlyMissing: Bool = false
    ) {
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
