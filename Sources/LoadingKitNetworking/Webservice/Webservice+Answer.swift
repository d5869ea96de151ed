import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The last step of an attempt: what an answer does to the store. Only a value of the
/// attempt's identity is ever stored or answered, nothing of a `no-store` response is
/// kept, and an answer never replaces the answer to a later request: the value
/// returned is then the stored one. An answer that came after the account changed is
/// another account's: it fails with ``AuthenticationFailure/accountChanged``, not
/// stored.
extension Webservice {
    /// Stores `value`, a `2xx` answer to the attempt, as `sent` allows, and returns
    /// what the load shows; `nil` when a mutation overtook it.
    func answered<A: Sendable>(
        _ value: A,
        for attempt: Attempt<A>,
        by response: HTTPURLResponse,
        bodySize: Int,
        as sent: Sent
    ) -> Result<Fetched<A>, WebserviceError>? {
        let validators = attempt.leavesOutValidators ? nil : Validators(response: response)
        let fields = CacheDirectives.fields(of: response)
        let directives = CacheDirectives(fields: fields, receivedAt: configuration.clock.dateNow)
        if attempt.stores, !directives.forbidsStoring {
            // Listed before the lock: the app's closure names each row's resource.
            let elements = attempt.resource.storedElements?(value)
            var overtaken = false
            var isRefusedForAccount = false
            let now = configuration.clock.continuousNow
            let refuses = {
                isRefusedForAccount = sent.isAnotherAccounts()
                overtaken = !isRefusedForAccount && sent.isOvertaken()
                return isRefusedForAccount || overtaken
            }
            let entry = store.store(
                value,
                for: attempt.identity,
                sequence: sent.sequence,
                notifies: attempt.notifies,
                unless: refuses
            ) { version in
                StoredEntry(
                    value: value,
                    validators: validators,
                    cacheFields: fields,
                    directives: directives,
                    loadedAt: now,
                    response: ResponseSummary(response: response),
                    version: version,
                    sequence: sent.sequence,
                    cost: bodySize,
                    elements: elements
                )
            }
            if isRefusedForAccount {
                return .failure(.authentication(.accountChanged))
            }
            if let entry, entry.sequence == sent.sequence, !sent.isAnotherAccounts() {
                if let persistence = sent.persistence {
                    persist(
                        value,
                        validators: validators,
                        directives: directives,
                        to: persistence
                    )
                }
                if let elements {
                    store(elements, listedIn: entry)
                }
            }
            if overtaken
                || (attempt.mayBeOvertaken
                    && entry.map { $0.sequence > sent.sequence && $0.isStale } == true)
            {
                return nil
            }
            if sent.isAnotherAccounts() {
                return .failure(.authentication(.accountChanged))
            }
            if let entry, let shown = entry.value as? A {
                return .success(Fetched(entry: entry, value: shown, isNotModified: false))
            }
        } else if attempt.stores {
            store.remove(attempt.identity)
            if let persistence = sent.persistence {
                forgetPersisted(persistence)
            }
        }
        guard !sent.isAnotherAccounts() else {
            return .failure(.authentication(.accountChanged))
        }
        return .success(
            Fetched(
                value: value,
                validators: directives.forbidsStoring ? nil : validators,
                isNotModified: false,
                cacheDirectives: directives
            )
        )
    }

    /// Confirms `conditional`, the stored entry a `304` answered the attempt for: its
    /// caching fields are updated one by one, its age and date are those of the `304`,
    /// received now, and it is no longer stale — or it is forgotten when the `304`
    /// forbids storing. Returns `nil`, confirming nothing, when a mutation settled
    /// after the request was sent.
    func notModified<A: Sendable>(
        _ conditional: (entry: StoredEntry, value: A),
        for attempt: Attempt<A>,
        answeredBy response: HTTPURLResponse,
        as sent: Sent
    ) -> Result<Fetched<A>, WebserviceError>? {
        report(.notModified, about: attempt.resource)
        var fields = conditional.entry.cacheFields
        fields["Age"] = nil
        fields["Date"] = nil
        fields.merge(CacheDirectives.fields(of: response)) { _, new in new }
        let directives = CacheDirectives(fields: fields, receivedAt: configuration.clock.dateNow)
        // A record on disk keeps the lifetime it was written with: one the server now
        // shortens, or asks to revalidate or not to keep, reads back stale.
        let was = conditional.entry.directives
        let shortened = was.freshnessLifetime.map { lifetime in
            directives.freshnessLifetime.map { $0 < lifetime } ?? true
        }
        if (directives.forbidsStoring || directives.requiresRevalidation)
            && !was.requiresRevalidation || shortened == true
        {
            markPersistedValuesStale()
        }
        guard !directives.forbidsStoring else {
            store.remove(attempt.identity)
            guard !sent.isAnotherAccounts() else {
                return .failure(.authentication(.accountChanged))
            }
            return .success(
                Fetched(
                    value: conditional.value,
                    validators: nil,
                    isNotModified: true,
                    cacheDirectives: directives
                )
            )
        }
        var overtaken = false
        let confirmed =
            store.apply(
                .confirmed(
                    cacheFields: fields,
                    directives: directives,
                    at: configuration.clock.continuousNow
                ),
                to: attempt.identity
            ) { _ in
                overtaken = sent.isAnotherAccounts() || sent.isOvertaken()
                return !overtaken
            } ?? conditional.entry
        guard !sent.isAnotherAccounts() else { return .failure(.authentication(.accountChanged)) }
        guard !overtaken else { return nil }
        let fetched = Fetched(
            entry: confirmed,
            value: (confirmed.value as? A) ?? conditional.value,
            isNotModified: true
        )
        if let listing = attempt.resource.storedElements,
            let entry = store.entry(for: attempt.identity)
        {
            // The rows the base was answered with, unless changes are laid on it.
            let kept = entry.edits.isEmpty ? entry.elements : nil
            store(kept ?? listing(fetched.value), listedIn: entry)
        }
        return .success(fetched)
    }
}
