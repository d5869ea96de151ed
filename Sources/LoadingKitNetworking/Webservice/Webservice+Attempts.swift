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
        identity: ResourceIdentity?,
        retry: RetryPolicy? = nil,
        notifies: Bool = true,
        account: UInt64? = nil
    ) async -> Result<Fetched<A>, WebserviceError> {
        let retry = retry ?? configuration.retry
        var attempt = Attempt(
            resource: resource,
            identity: identity,
            notifies: notifies,
            account: account
        )
        while true {
            guard let outcome = await once(attempt) else {
                attempt.timesOvertaken += 1
                report(.overtakenByMutation, about: resource)
                // Asked again once the mutations under way now have ended.
                // Only a stored answer is overtaken: the wait is the configuration's.
                await writes.waitForMutations(
                    changing: attempt.identity,
                    atMost: configuration.mutationWait,
                    on: configuration.clock
                ) {
                    report(.waitingForMutation, about: resource)
                }
                continue
            }
            guard case .failure(let error) = outcome, attempt.number < retry.maximumAttempts,
                retry.allowsRetry(of: error, method: resource.method),
                let (delay, fromHeader) = delay(
                    after: error,
                    beforeRetry: attempt.number,
                    under: retry
                )
            else { return outcome }
            attempt.number += 1
            retry.onAttempt?(
                RetryAttempt(
                    number: attempt.number,
                    error: error,
                    delay: delay,
                    isFromRetryAfter: fromHeader
                )
            )
            report(.retrying(attempt: attempt.number, delay: delay), about: resource)
            let clock = configuration.clock
            do {
                try await clock.sleep(for: delay)
            } catch {
                report(.cancelled, about: resource)
                return .failure(.cancelled)
            }
        }
    }

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

    // MARK: - One attempt, step by step

    /// One request, as a row of steps: its **credentials**, its **conditional
    /// headers**, the **send**, the **retry decision** (a renewed credential, or the
    /// validators left out), the **parse**, and the **store** (in
    /// `Webservice+Answer.swift`). A step of a feature the webservice does not use —
    /// an authenticator, a persistent store — is not called at all.
    ///
    /// Returns `nil` — the caller asks again — when the attempt may be overtaken and
    /// a mutation made the stored value stale after the request was sent: the answer
    /// could predate the change.
    private func once<A: Sendable>(
        _ attempt: Attempt<A>
    ) async -> Result<Fetched<A>, WebserviceError>? {
        let resource = attempt.resource
        var request = resource.request
        var stamp: Authenticator.Stamp?
        if configuration.authenticator != nil {
            switch await authenticate(&request, as: attempt.credential, for: attempt.account) {
            case .failure(let failure):
                return reportFailure(.authentication(failure), of: resource, since: nil)
            case .success(let sent):
                stamp = sent
            case nil:
                break
            }
        }
        let persistence = persistence(for: attempt)
        let conditional = conditionalEntry(for: attempt, restoringFrom: persistence)
        conditional?.entry.validators?.apply(to: &request)
        let sent = Sent(
            sequence: store.nextSequence(),
            persistence: persistence,
            isOvertaken: overtakingCheck(for: attempt),
            isAnotherAccounts: stamp.map { stamp in
                { self.accountChanged(since: stamp.account) }
            } ?? { false }
        )
        // A fetch abandoned before its request left sends nothing.
        guard !Task.isCancelled else { return .failure(.cancelled) }
        let started = isMonitored ? configuration.clock.continuousNow : nil
        if isMonitored {
            report(.started(attempt: attempt.number), about: resource)
        }
        let data: Data
        let response: HTTPURLResponse
        let expired: Bool
        switch await send(request, of: resource, carrying: stamp, since: started) {
        case .success(let exchange):
            (data, response, expired) = exchange
        case .failure(let failure):
            return .failure(failure)
        }
        if let stamp, expired, let authenticator = configuration.authenticator {
            switch await renewal(of: stamp, for: attempt, from: authenticator) {
            case .success(let renewed):
                return await once(attempt.sent(with: renewed))
            case .failure(let failure):
                return reportFailure(.authentication(failure), of: resource, since: started)
            }
        }
        if response.statusCode == 304, let conditional {
            return notModified(conditional, for: attempt, answeredBy: response, as: sent)
        }
        guard resource.acceptableStatusCodes.contains(response.statusCode) else {
            if let conditional,
                refusesValidators(response, of: attempt, keeping: conditional, in: persistence)
            {
                // The server refused the conditions: asked once more without them.
                return await once(attempt.withoutValidators())
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
        return answered(value, for: attempt, by: response, bodySize: data.count, as: sent)
    }

    /// Parses the body with `resource`, reporting what its parse makes of the `Link`
    /// header — targets on other origins refused, values unreadable — when anyone
    /// listens.
    private func parse<A>(
        _ resource: Resource<A>,
        _ data: Data,
        _ response: HTTPURLResponse
    ) throws -> A {
        guard isMonitored else { return try resource.parse(data, response) }
        let report: @Sendable (LoadingEvent.Kind) -> Void = { kind in
            self.report(kind, about: resource)
        }
        return try LinkReports.reporting(to: report) { try resource.parse(data, response) }
    }

    /// Where the attempt's value is kept across launches: only with a persistent store,
    /// for a request whose value is stored.
    private func persistence<A>(for attempt: Attempt<A>) -> Persistence? {
        guard attempt.stores, configuration.persistentStore != nil else { return nil }
        return persistence(of: attempt.resource, identity: attempt.identity)
    }

    /// The stored entry the request is conditional on, with its value — read back from
    /// `persistence` when memory has none — or `nil` when it has no validators, the
    /// webservice does not revalidate, or the attempt leaves them out.
    private func conditionalEntry<A: Sendable>(
        for attempt: Attempt<A>,
        restoringFrom persistence: Persistence?
    ) -> (entry: StoredEntry, value: A)? {
        guard attempt.stores else { return nil }
        var stored = store.entry(for: attempt.identity)
        if stored == nil, let persistence {
            stored = restore(A.self, from: persistence, for: attempt.identity)
        }
        guard configuration.revalidates, !attempt.leavesOutValidators, let stored,
            stored.validators != nil, let value = stored.value as? A
        else { return nil }
        return (stored, value)
    }

    /// Sends `request`, with `stamp`'s credential fields marked as such for the
    /// transport, telling the outbox whether the server could be reached and the
    /// monitor what came back. The answer comes with whether it says the credential of
    /// `stamp` expired: such an answer wakes no waiting write, which would be sent with
    /// that credential before its renewal began.
    private func send<A>(
        _ request: URLRequest,
        of resource: Resource<A>,
        carrying stamp: Authenticator.Stamp?,
        since started: ContinuousClock.Instant?
    ) async -> Result<(Data, HTTPURLResponse, expired: Bool), WebserviceError> {
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
        let expired = stamp != nil && saysExpired(response, to: request)
        if !expired {
            configuration.outbox?.noteAnswer(to: request, status: response.statusCode)
        }
        if let started {
            let duration = started.duration(to: configuration.clock.continuousNow)
            report(
                .finished(status: response.statusCode, bytes: data.count, duration: duration),
                about: resource
            )
        }
        return .success((data, response, expired))
    }

    /// Whether `response` says the credential `request` carried expired: only its own
    /// server can say so, not one it was redirected to.
    private func saysExpired(_ response: HTTPURLResponse, to request: URLRequest) -> Bool {
        guard let authenticator = configuration.authenticator else { return false }
        return authenticator.isExpired(response) && Self.isSameOrigin(response.url, request.url)
    }

    /// The credential to send the attempt again with, the server having said the one
    /// of `stamp` expired: renewed once for every request that found it so. A renewed
    /// credential that is refused itself is not sent again.
    private func renewal<A>(
        of stamp: Authenticator.Stamp,
        for attempt: Attempt<A>,
        from authenticator: Authenticator
    ) async -> Result<Authenticator.Stamp, AuthenticationFailure> {
        if attempt.credential == nil {
            return await authenticator.renewed(after: stamp)
        }
        if authenticator.isCurrent(stamp) || attempt.replays >= 2 {
            // The renewed credential itself is refused: it is not sent again.
            authenticator.refuse(stamp)
            return .failure(.refused)
        }
        // Replaced while it was sent: sent once more with the current one.
        return authenticator.validate(stamp)
    }

    /// Whether `answered` — where a response came from, after any redirect — is the
    /// origin of `sent`: only its server can say the credential expired.
    private static func isSameOrigin(_ answered: URL?, _ sent: URL?) -> Bool {
        guard let answered, let sent else { return true }
        return answered.hasSameOrigin(as: sent)
    }

    /// Whether the server refused a conditional request for its conditions (`400`,
    /// `431`): the validators stored — and those persisted with `conditional`'s value
    /// in `persistence` — are forgotten, and the attempt is sent once more without them.
    private func refusesValidators<A: Sendable>(
        _ response: HTTPURLResponse,
        of attempt: Attempt<A>,
        keeping conditional: (entry: StoredEntry, value: A),
        in persistence: Persistence?
    ) -> Bool {
        guard [400, 431].contains(response.statusCode),
            store.apply(
                .validatorsRefused,
                to: attempt.identity,
                notifies: false,
                if: {
                    $0.validators != nil
                }
            ) != nil
        else { return false }
        if let persistence, let base = conditional.entry.base as? A {
            persist(base, validators: nil, to: persistence)
        }
        return true
    }

    /// Whether a mutation made the attempt's value stale since now: its answer could
    /// predate the change. Always `false` when the attempt may not be overtaken.
    private func overtakingCheck<A>(for attempt: Attempt<A>) -> @Sendable () -> Bool {
        guard attempt.mayBeOvertaken else { return { false } }
        // No mutation was ever sent: a first one starts counting its settlings at 0.
        let mark = writesIfAny?.mark ?? 0
        let identity = attempt.identity
        return { self.writesIfAny?.isOvertaken(since: mark, changing: identity) ?? false }
    }
}

// MARK: - What an attempt carries

/// One attempt of a load: what it sends, and how it may end.
///
/// ```swift
/// var first = Attempt(resource: episode, identity: episode.identity, notifies: true,
///                     account: nil)
/// let plain = first.withoutValidators()  // the server refused the conditions
/// first.number += 1                        // sent again after a failure
/// ```
struct Attempt<A: Sendable> {
    /// What is loaded.
    let resource: Resource<A>
    /// Whether its answer is stored: a `GET` or `HEAD` that does not ignore caches,
    /// and not a credential renewal's own request (tokens are never stored).
    let stores: Bool
    /// The resource's identity as the caller computed it — always, for an attempt that
    /// stores: no step of one that does not reads it.
    private let knownIdentity: ResourceIdentity?
    /// Whether the store tells the loaders of a value stored.
    let notifies: Bool
    /// The number of the account the load is for, with an authenticator.
    let account: UInt64?
    /// The attempt's number, from 1, as the monitor is told.
    var number = 1
    /// How many times in a row a mutation made its answer stale before it arrived.
    var timesOvertaken = 0
    /// The credential it is sent with: `nil` for the current one.
    private(set) var credential: Authenticator.Stamp?
    /// How many times it was sent again with a renewed credential.
    private(set) var replays = 0
    /// Whether it is sent without the stored validators, which a server refused.
    private(set) var leavesOutValidators = false

    /// An attempt of `resource`, numbered 1.
    ///
    /// - Parameters:
    ///   - resource: What is loaded.
    ///   - identity: The resource's identity, when the caller has computed it.
    ///   - notifies: Whether the store tells the loaders of a value stored.
    ///   - account: The number of the account the load is for, with an authenticator.
    init(resource: Resource<A>, identity: ResourceIdentity?, notifies: Bool, account: UInt64?) {
        self.resource = resource
        stores =
            !resource.ignoresCache && (resource.method == .get || resource.method == .head)
            && !Authenticator.isRefreshing
        knownIdentity = identity ?? (stores ? resource.identity : nil)
        self.notifies = notifies
        self.account = account
    }

    /// The resource's identity.
    var identity: ResourceIdentity { knownIdentity ?? resource.identity }

    /// Whether the answer is refused when a mutation made the value stale after the
    /// request was sent: only a stored answer can be, three times in a row at most.
    var mayBeOvertaken: Bool { stores && timesOvertaken < 3 }

    /// The same attempt, sent again with the renewed credential `renewed`.
    func sent(with renewed: Authenticator.Stamp) -> Attempt {
        var next = self
        next.credential = renewed
        next.replays += 1
        return next
    }

    /// The same attempt, sent again without validators.
    func withoutValidators() -> Attempt {
        var next = self
        next.leavesOutValidators = true
        return next
    }
}

/// What an attempt's answer is checked and stored with, fixed as its request is sent.
struct Sent {
    /// The request's number, which orders the answers stored.
    let sequence: UInt64
    /// Where the value is kept across launches, if anywhere.
    let persistence: Webservice.Persistence?
    /// Whether a mutation made the value stale since the request was sent.
    let isOvertaken: @Sendable () -> Bool
    /// Whether another account signed in since the request was sent.
    let isAnotherAccounts: () -> Bool
}
