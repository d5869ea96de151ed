import Foundation

extension Webservice {
    /// Stores `value`, pushed by the server as of request number `sequence`, as the
    /// value of `identity`: a new entry when none is stored; else the entry's base,
    /// unless it holds the answer to a request sent after the push arrived. The loaders
    /// showing it are told.
    func push(_ value: some Sendable, to identity: ResourceIdentity, sequence: UInt64) {
        let now = configuration.clock.continuousNow
        let applied = store.apply(
            .pushed(value: value, at: now, sequence: sequence),
            to: identity,
            if: { $0.sequence <= sequence }
        )
        guard applied == nil, store.entry(for: identity) == nil else { return }
        _ = store.store(value, for: identity, sequence: sequence) { version in
            StoredEntry(
                value: value,
                validators: nil,
                cacheFields: [:],
                directives: CacheDirectives(),
                loadedAt: now,
                response: ResponseSummary(statusCode: 200, url: identity.url),
                version: version,
                sequence: sequence,
                cost: 0
            )
        }
    }

    /// Changes the stored value of `resource`, when one is stored, with
    /// `change`: a local edit the server pushed, the changes of mutations in flight kept
    /// on top. The loaders showing it are told.
    func pushEdit<A: Sendable>(to resource: Resource<A>, _ change: (inout A) -> Void) {
        _ = editStoredValue(of: resource.identity, as: resource, notifies: true) { value in
            change(&value)
            return true
        }
    }
}
