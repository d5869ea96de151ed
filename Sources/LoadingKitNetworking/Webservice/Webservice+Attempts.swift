import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension Webservice {
    /// Loads `resource`, retrying as the policy allows.
    func attempts<A: Sendable>(
        _ resource: Resource<A>,
        identity: ResourceIdentity
    ) async -> Result<Fetched<A>, WebserviceError> {
        let retry = configuration.retry
        var attempt = 1
        while true {
            let outcome = await once(resource, identity: identity)
            guard case .failure(let error) = outcome, attempt < retry.maximumAttempts,
                retry.allowsRetry(of: error, method: resource.method),
                let (delay, fromHeader) = delay(after: error, beforeRetry: attempt)
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
            let clock = configuration.clock
            do {
                try await clock.sleep(until: clock.now.advanced(by: delay))
            } catch {
                return .failure(.cancelled)
            }
        }
    }

    /// The wait before retry `retry`: `Retry-After` on 429 and 503, else the backoff;
    /// `nil` when the server asks for more than the policy honours.
    private func delay(
        after error: WebserviceError,
        beforeRetry retry: Int
    ) -> (Duration, fromRetryAfter: Bool)? {
        let policy = configuration.retry
        if case .badStatus(let failure) = error, [429, 503].contains(failure.statusCode),
            let retryAfter = failure.header("Retry-After").flatMap(RetryAfter.init)
        {
            let delay = retryAfter.delay(from: configuration.clock.currentDate)
            return delay <= policy.maximumRetryAfter ? (delay, true) : nil
        }
        return (policy.delay(beforeRetry: retry), false)
    }

    /// One request: with the stored validators when there are any, answered from the
    /// stored value on `304`. Only a value of the same identity is ever stored or
    /// answered, and nothing of a `no-store` response is kept.
    private func once<A: Sendable>(
        _ resource: Resource<A>,
        identity: ResourceIdentity
    ) async -> Result<Fetched<A>, WebserviceError> {
        var request = resource.request
        let revalidates =
            configuration.revalidates && !resource.ignoresCache
            && (resource.method == .get || resource.method == .head)
        let stored = revalidates ? store.entry(for: identity) : nil
        let storedValue = stored?.value as? A
        if let stored, storedValue != nil {
            stored.validators.apply(to: &request)
        }
        let data: Data
        let response: HTTPURLResponse
        do {
            (data, response) = try await transport.send(request)
        } catch {
            return .failure(
                WebserviceError(transportError: error, url: request.url, method: resource.method)
            )
        }
        let date = configuration.clock.currentDate
        let fields = CacheDirectives.fields(of: response)
        if response.statusCode == 304, let stored, let storedValue {
            // A 304 updates the stored response's caching fields one by one; its age
            // and date are those of the 304, received now.
            var updated = stored.cacheFields
            updated["Age"] = nil
            updated["Date"] = nil
            updated.merge(fields) { _, new in new }
            let directives = CacheDirectives(fields: updated, receivedAt: date)
            keep(storedValue, stored.validators, updated, directives, for: identity)
            return .success(
                Fetched(
                    value: storedValue,
                    validators: stored.validators,
                    isNotModified: true,
                    cacheDirectives: directives
                )
            )
        }
        guard resource.acceptableStatusCodes.contains(response.statusCode) else {
            return .failure(WebserviceError.status(response, body: data, method: resource.method))
        }
        let value: A
        do {
            value = try resource.parse(data, response)
        } catch {
            return .failure(
                WebserviceError(
                    parseError: error,
                    url: response.url ?? request.url,
                    method: resource.method
                )
            )
        }
        let validators = Validators(response: response)
        let directives = CacheDirectives(fields: fields, receivedAt: date)
        if revalidates {
            keep(value, validators, fields, directives, for: identity)
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

    /// Keeps `value` with its validators and caching fields for the next conditional
    /// request of `identity`, or forgets the entry when there are no validators or the
    /// response may not be stored.
    private func keep(
        _ value: any Sendable,
        _ validators: Validators?,
        _ fields: [String: String],
        _ directives: CacheDirectives,
        for identity: ResourceIdentity
    ) {
        guard let validators, !directives.forbidsStoring else {
            store.remove(identity)
            return
        }
        store.store(
            ValidatorStore.Entry(validators: validators, value: value, cacheFields: fields),
            for: identity
        )
    }
}
