import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension Webservice {
    /// Loads `resource`, retrying as `retry` allows (by default, the configuration's
    /// policy); `notifies` says whether the store tells the loaders of a value stored.
    /// With an authenticator, it is sent only for account number `account`.
    func attempts<A: Sendable>(
        _ resource: Resource<A>,
        identity: ResourceIdentity,
        retry: RetryPolicy? = nil,
        notifies: Bool = true,
        account: UInt64? = nil
    ) async -> Result<Fetched<A>, WebserviceError> {
        let retry = retry ?? configuration.retry
        var attempt = 1
        var overtaken = 0
        while true {
            guard
                let outcome = await once(
                    resource,
                    identity: identity,
                    attempt: attempt,
                    notifies: notifies,
                    mayBeOvertaken: overtaken < Self.maximumOvertakenAnswers
                        && !Authenticator.isRefreshing,
                    account: account
                )
            else {
                overtaken += 1
                report(.overtakenByMutation, about: resource)
                // Asked again once the mutations under way now have ended.
                await writes.settle(identity) {
                    report(.waitingForMutation, about: resource)
                }
                continue
            }
            guard case .failure(let error) = outcome, attempt < retry.maximumAttempts,
                retry.allowsRetry(of: error, method: resource.method),
                let (delay, fromHeader) = delay(after: error, beforeRetry: attempt, under: retry)
            else { return outcome }
            attempt += 1
            retry.onAttempt?(
                RetryAttempt(
                    number: attempt,
                    error: error,
                    delay: delay,
                    isFromRetryAfter: fromHeader
                )
            )
            report(.retrying(attempt: attempt, delay: delay), about: resource)
            let clock = configuration.clock
            do {
                try await clock.sleep(for: delay)
            } catch {
                report(.cancelled, about: resource)
                return .failure(.cancelled)
            }
        }
    }

    /// Whether `answered` — where a response came from, after any redirect — is the
    /// origin of `sent`: only its server can say the credential expired.
    private static func isSameOrigin(_ answered: URL?, _ sent: URL?) -> Bool {
        guard let answered, let sent else { return true }
        return answered.hasSameOrigin(as: sent)
    }

    /// Forgets the validators stored for `identity` after a server refused a request
    /// carrying them (`400`, `431`); returns whether there were.
    private func forgetValidators(of identity: ResourceIdentity) -> Bool {
        store.apply(.validatorsRefused, to: identity, notifies: false) {
            $0.validators != nil
        } != nil
    }

    /// How many times in a row a load asks again when a mutation made its answer
    /// stale before it arrived.
    private static var maximumOvertakenAnswers: Int { 3 }

    /// The wait before retry `retry`: `Retry-After` on 429 and 503, else the backoff;
    /// `nil` when the server asks for more than the policy honours.
    private func delay(
        after error: WebserviceError,
        beforeRetry retry: Int,
        under policy: RetryPolicy
    ) -> (Duration, fromRetryAfter: Bool)? {
        if case .badStatus(let failure) = error, [429, 503].contains(failure.statusCode),
            let retryAfter = failure.header("Retry-After").flatMap(RetryAfter.init)
        {
            let delay = retryAfter.delay(from: configuration.clock.dateNow)
            return delay <= policy.maximumRetryAfter ? (delay, true) : nil
        }
        return (policy.delay(beforeRetry: retry), false)
    }

    /// One request: conditional when the stored value has validators, answered from
    /// the stored value on `304`. Only a value of the same identity is ever stored or
    /// answered, nothing of a `no-store` response is kept, and an answer never
    /// replaces the answer to a later request: the value returned is then the stored
    /// one. It is reported to the monitor, if any, as attempt `attempt`. Returns `nil`
    /// — the caller asks again — when `mayBeOvertaken` and a mutation made the stored
    /// value stale after the request was sent: the answer could predate the change.
    ///
    /// With an authenticator, the request carries the credential of `credential` (the
    /// current one by default); answered as expired, it is sent once more with the
    /// renewed one, and an answer that came after the account changed is another
    /// account's: it fails with ``AuthenticationFailure/accountChanged``, not stored.
    /// A conditional request refused with `400` or `431` is sent once more
    /// `withoutValidators`, and what it answers is stored without them.
    private func once<A: Sendable>(
        _ resource: Resource<A>,
        identity: ResourceIdentity,
        attempt: Int,
        notifies: Bool,
        mayBeOvertaken: Bool,
        account: UInt64?,
        credential: Authenticator.Stamp? = nil,
        replays: Int = 0,
        withoutValidators: Bool = false
    ) async -> Result<Fetched<A>, WebserviceError>? {
        /// This request sent once more, as `credential` and `replays` say.
        func again(
            credential: Authenticator.Stamp?,
            replays: Int,
            withoutValidators: Bool
        ) async -> Result<Fetched<A>, WebserviceError>? {
            await once(
                resource,
                identity: identity,
                attempt: attempt,
                notifies: notifies,
                mayBeOvertaken: mayBeOvertaken,
                account: account,
                credential: credential,
                replays: replays,
                withoutValidators: withoutValidators
            )
        }
        var request = resource.request
        let stamp: Authenticator.Stamp?
        switch await authenticate(&request, as: credential, for: account) {
        case .failure(let failure):
            return reportFailure(.authentication(failure), of: resource, since: nil)
        case .success(let sent):
            stamp = sent
        case nil:
            stamp = nil
        }
        // A renewal's own answers, tokens among them, are never stored.
        let stores =
            !resource.ignoresCache && (resource.method == .get || resource.method == .head)
            && !Authenticator.isRefreshing
        let persistence = stores ? persistence(of: resource, identity: identity) : nil
        var stored = stores ? store.entry(for: identity) : nil
        if stored == nil, let persistence {
            stored = restore(A.self, from: persistence, for: identity)
        }
        let conditional =
            configuration.revalidates && !withoutValidators && stored?.validators != nil
            ? stored : nil
        let conditionalValue = conditional?.value as? A
        if conditionalValue != nil {
            conditional?.validators?.apply(to: &request)
        }
        let sequence = store.nextSequence()
        let mark = writes.mark
        let isOvertaken = { @Sendable in
            mayBeOvertaken && self.writes.isOvertaken(since: mark, changing: identity)
        }
        let started = isMonitored ? configuration.clock.continuousNow : nil
        report(.started(attempt: attempt), about: resource)
        let data: Data
        let response: HTTPURLResponse
        do {
            if let credential = stamp?.credential {
                (data, response) = try await URLSessionTransport.$credentialFields.withValue(
                    Set(credential.headerFields.keys)
                ) { try await transport.send(request) }
            } else {
                (data, response) = try await transport.send(request)
            }
        } catch {
            let failure = WebserviceError(
                transportError: error,
                url: request.url,
                method: resource.method
            )
            if case .transport = failure {
                configuration.outbox?.noteUnreachable(request.url)
            }
            return reportFailure(failure, of: resource, since: started)
        }
        configuration.outbox?.noteAnswer(from: request.url, status: response.statusCode)
        if let started {
            let duration = started.duration(to: configuration.clock.continuousNow)
            let status = response.statusCode
            report(
                .finished(status: status, bytes: data.count, duration: duration),
                about: resource
            )
        }
        if let stamp, let authenticator = configuration.authenticator,
            authenticator.isExpired(response),
            Self.isSameOrigin(response.url, request.url)
        {
            let next: Result<Authenticator.Stamp, AuthenticationFailure>
            if credential == nil {
                next = await authenticator.renewed(after: stamp)
            } else if authenticator.isCurrent(stamp) || replays >= 2 {
                // The renewed credential itself is refused: it is not sent again.
                authenticator.refuse(stamp)
                next = .failure(.refused)
            } else {
                // Replaced while it was sent: sent once more with the current one.
                next = authenticator.validate(stamp)
            }
            switch next {
            case .success(let renewed):
                return await again(
                    credential: renewed,
                    replays: replays + 1,
                    withoutValidators: withoutValidators
                )
            case .failure(let failure):
                return reportFailure(.authentication(failure), of: resource, since: started)
            }
        }
        let isAnotherAccounts = { self.accountChanged(since: stamp?.account) }
        let date = configuration.clock.dateNow
        let fields = CacheDirectives.fields(of: response)
        if response.statusCode == 304, let conditional, let conditionalValue {
            report(.notModified, about: resource)
            guard
                let confirmed = confirm(
                    conditional,
                    showing: conditionalValue,
                    of: identity,
                    with: fields,
                    at: date,
                    unless: { isAnotherAccounts() || isOvertaken() }
                )
            else {
                guard !isAnotherAccounts() else {
                    return .failure(.authentication(.accountChanged))
                }
                return nil
            }
            guard !isAnotherAccounts() else { return .failure(.authentication(.accountChanged)) }
            if resource.storedElements != nil, confirmed.storeVersion != nil,
                let entry = store.entry(for: identity)
            {
                storeElements(of: confirmed.value, from: resource, listedIn: entry)
            }
            return .success(confirmed)
        }
        guard resource.acceptableStatusCodes.contains(response.statusCode) else {
            if conditionalValue != nil, [400, 431].contains(response.statusCode),
                forgetValidators(of: identity)
            {
                if let persistence, let base = conditional?.base as? A {
                    persist(base, validators: nil, to: persistence)
                }
                // The server refused the conditions: asked once more without them.
                return await again(
                    credential: credential,
                    replays: replays,
                    withoutValidators: true
                )
            }
            let failure = WebserviceError.status(response, body: data, method: resource.method)
            return reportFailure(failure, of: resource, since: started)
        }
        let value: A
        do {
            value = try parse(resource, data, response)
        } catch {
            let failure = WebserviceError(
                parseError: error,
                url: response.url ?? request.url,
                method: resource.method
            ).sayingWhatCame(data, response)
            return reportFailure(failure, of: resource, since: started)
        }
        let validators = withoutValidators ? nil : Validators(response: response)
        let directives = CacheDirectives(fields: fields, receivedAt: date)
        if stores, !directives.forbidsStoring {
            let now = configuration.clock.continuousNow
            var overtaken = false
            var isRefusedForAccount = false
            let refuses = {
                isRefusedForAccount = isAnotherAccounts()
                overtaken = !isRefusedForAccount && isOvertaken()
                return isRefusedForAccount || overtaken
            }
            let entry = store.store(
                value,
                for: identity,
                sequence: sequence,
                notifies: notifies,
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
                    sequence: sequence,
                    cost: data.count
                )
            }
            if isRefusedForAccount {
                return .failure(.authentication(.accountChanged))
            }
            if let entry, entry.sequence == sequence, !isAnotherAccounts() {
                if let persistence {
                    persist(value, validators: validators, to: persistence)
                }
                storeElements(of: value, from: resource, listedIn: entry)
            }
            if overtaken
                || (mayBeOvertaken && entry.map { $0.sequence > sequence && $0.isStale } == true)
            {
                return nil
            }
            if isAnotherAccounts() {
                return .failure(.authentication(.accountChanged))
            }
            if let entry, let shown = entry.value as? A {
                return .success(Fetched(entry: entry, value: shown, isNotModified: false))
            }
        } else if stores {
            store.remove(identity)
            if let persistence {
                forgetPersisted(persistence)
            }
        }
        guard !isAnotherAccounts() else { return .failure(.authentication(.accountChanged)) }
        return .success(
            Fetched(
                value: value,
                validators: directives.forbidsStoring ? nil : validators,
                isNotModified: false,
                cacheDirectives: directives
            )
        )
    }

    /// The stored entry `entry`, showing `value`, which a `304` with the caching fields
    /// `fields` confirmed at `date`: its caching fields are updated one by one, its age
    /// and date are those of the `304`, received now, and it is no longer stale — or it
    /// is forgotten when the `304` forbids storing. Returns `nil`, confirming nothing,
    /// when `isOvertaken` says a mutation settled after the request was sent.
    private func confirm<A: Sendable>(
        _ entry: StoredEntry,
        showing value: A,
        of identity: ResourceIdentity,
        with fields: [String: String],
        at date: Date,
        unless isOvertaken: () -> Bool
    ) -> Fetched<A>? {
        var updated = entry.cacheFields
        updated["Age"] = nil
        updated["Date"] = nil
        updated.merge(fields) { _, new in new }
        let directives = CacheDirectives(fields: updated, receivedAt: date)
        guard !directives.forbidsStoring else {
            store.remove(identity)
            return Fetched(
                value: value,
                validators: nil,
                isNotModified: true,
                cacheDirectives: directives
            )
        }
        let now = configuration.clock.continuousNow
        var overtaken = false
        let confirmed =
            store.apply(
                .confirmed(cacheFields: updated, directives: directives, at: now),
                to: identity
            ) { _ in
                overtaken = isOvertaken()
                return !overtaken
            } ?? entry
        guard !overtaken else { return nil }
        return Fetched(
            entry: confirmed,
            value: (confirmed.value as? A) ?? value,
            isNotModified: true
        )
    }
}
