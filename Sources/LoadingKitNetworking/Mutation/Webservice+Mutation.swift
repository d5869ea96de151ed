import Foundation

extension Webservice {
    /// Sends `mutation`: shows its optimistic changes on the stored values at once,
    /// waits for the mutations sent before it in its scope, sends its request, then
    /// stores its answer where it says, keeps the changes and invalidates what it names
    /// (and the values it changed) if it succeeds, or takes the changes back exactly if
    /// it fails or is cancelled — keeping every value stored meanwhile.
    ///
    /// ```swift
    /// let saved = try await webservice.send(Mutation(Post.create(draft)).invalidating(.resource(Post.all)))
    /// ```
    ///
    /// A load of a value the mutation changes waits until it has ended — at most the
    /// configuration's ``Webservice/Configuration/mutationWait``, 2 s by default, after
    /// which it goes with the change laid on what it brings — and the answer to a load
    /// sent before it ended is not stored: it could predate the change.
    ///
    /// - Parameter mutation: What to send and what it changes.
    /// - Returns: The parsed answer.
    /// - Throws: ``WebserviceError`` for every failure; ``WebserviceError/cancelled``
    ///   when the calling task is cancelled.
    public func send<A: Sendable>(_ mutation: Mutation<A>) async throws(WebserviceError) -> A {
        try await complete(mutation, startedAs: begin(mutation, notifying: true))
    }

    /// Shows the optimistic changes of `mutation` on the stored values, telling the
    /// loaders when `notifying` (otherwise the caller tells them, in its own turn), and
    /// gives the mutation its turn in its scope.
    package func begin<A>(_ mutation: Mutation<A>, notifying: Bool) -> MutationStart {
        let id = store.nextSequence()
        var shownNowhere = 0
        for change in mutation.changes {
            let entry = store.apply(
                .changeLaid(StoredEntry.Edit(id: id, apply: change.apply)),
                to: change.identity,
                notifies: notifying
            )
            if entry == nil {
                shownNowhere += 1
                reportShownNowhere(change.identity)
            }
        }
        let writes = writes
        let turn = writes.enqueue(
            in: mutation.scope,
            changing: mutation.touchedIdentities,
            mutation.changesValue(of:)
        )
        return MutationStart(
            id: id,
            writes: writes,
            turn: turn,
            notifies: notifying,
            account: configuration.authenticator?.account,
            changesShownNowhere: shownNowhere
        )
    }

    /// Reports that an optimistic change of `identity` found no stored value.
    private func reportShownNowhere(_ identity: ResourceIdentity) {
        guard let monitor = configuration.monitor else { return }
        monitor.record(
            LoadingEvent(kind: .changeShownNowhere, method: identity.method, url: identity.url)
        )
    }

    /// Sends `mutation`, which ``begin(_:notifying:)`` started as `start`, once its
    /// turn has come, then concludes it on the stored values as ``send(_:)`` says.
    package func complete<A: Sendable>(
        _ mutation: Mutation<A>,
        startedAs start: MutationStart
    ) async throws(WebserviceError) -> A {
        await start.turn.previousEnded {
            self.report(.waitingForMutation, about: mutation.resource)
        }
        if let keeping = mutation.keeping {
            return try await completeKept(mutation, keeping: keeping, startedAs: start)
        }
        let outcome: Result<Fetched<A>, WebserviceError>
        // Cancelled before its turn came, it never reached the server.
        let isSent = !Task.isCancelled
        do throws(WebserviceError) {
            guard isSent else { throw .cancelled }
            // Retried and shared only as the mutation says.
            outcome = .success(
                try await fetch(
                    mutation.resource,
                    retry: mutation.retry,
                    coalesces: mutation.coalesces,
                    settlingWrites: false
                )
            )
        } catch {
            outcome = .failure(error)
        }
        conclude(mutation, startedAs: start, after: outcome, wasSent: isSent)
        start.writes.end(start.turn, in: mutation.scope)
        return try outcome.get().value
    }

    /// Stores the answer of a mutation that succeeded where it says, takes its
    /// optimistic changes off — kept in the base on success — and, when the server has
    /// or may have the change (its outcome is unknown: cancelled or timed out after it
    /// was sent, its connection lost, its answer unreadable, a gateway's `502` or `504`,
    /// or a failure after retries), makes what it changed stale and refuses the answers
    /// of loads sent before. A change whose outcome is unknown stays shown, unconfirmed,
    /// until the server's value comes in — taken back only if the server lacks it —
    /// unless the mutation was cancelled: its change is then taken back at once.
    func conclude<A: Sendable>(
        _ mutation: Mutation<A>,
        startedAs start: MutationStart,
        after outcome: Result<Fetched<A>, WebserviceError>,
        wasSent: Bool
    ) {
        // An answer for an account no longer signed in is not stored for the next.
        let answer = accountChanged(since: start.account) ? nil : try? outcome.get().value
        // A retried write may have been applied by an attempt before the last, whatever
        // the last one met — unless the server refused it.
        let retried = mutation.retry.maximumAttempts > 1 && !outcome.isRefusal
        let mayBeApplied = answer != nil || (wasSent && (outcome.mayHaveBeenApplied || retried))
        if mayBeApplied {
            // The values on disk keep their lifetimes; the server's may have changed.
            markPersistedValuesStale()
        }
        if mayBeApplied || start.answerMayBeOutdated {
            start.writes.noteSettling(start.turn)
        }
        let answered = answer == nil ? [] : mutation.answeredIdentities
        if let answer {
            for target in mutation.answers {
                storeAnswer(answer, of: target, replacingEdit: start.id)
                if start.notifies {
                    store.tell(.answered(target.identity))
                }
            }
        }
        // Without an answer, a change the server may have stays shown until it tells —
        // unless its caller cancelled it, which takes it back at once.
        let isUnconfirmed = answer == nil && mayBeApplied && !outcome.isCancellation
        for identity in mutation.changedIdentities where !answered.contains(identity) {
            store.apply(
                isUnconfirmed
                    ? .changeUnconfirmed(id: start.id)
                    : .changeEnded(id: start.id, kept: answer != nil),
                to: identity,
                notifies: start.notifies
            )
        }
        if isUnconfirmed, !mutation.changedIdentities.isEmpty {
            report(.changeUnconfirmed, about: mutation.resource)
        }
        guard mayBeApplied else { return }
        // The server has the change, or may have it: its own value wins — also over
        // the answer, when another mutation of the value was under way meanwhile or the
        // answer may be the one to an earlier attempt.
        let changed =
            start.answerMayBeOutdated
            ? mutation.touchedIdentities
            : mutation.changedIdentities.filter { !answered.contains($0) }
        let invalidations =
            (answer == nil ? [] : mutation.invalidations)
            + (changed.isEmpty ? [] : [Invalidation { changed.contains($0) }])
        for invalidation in invalidations {
            store.invalidate(invalidation, refusingEarlierAnswers: true)
        }
    }

    /// Stores `answer` as `target` says, in place of the optimistic change `id`, as the
    /// answer to a request sent now: a load sent before is not stored over it.
    private func storeAnswer<A: Sendable>(
        _ answer: A,
        of target: Mutation<A>.Answer,
        replacingEdit id: UInt64
    ) {
        let sequence = store.nextSequence()
        let now = configuration.clock.continuousNow
        let updated = store.apply(
            .mutationAnswered(
                id: id,
                answer: { base in target.apply(base, answer) },
                at: now,
                sequence: sequence
            ),
            to: target.identity,
            notifies: false
        )
        guard updated == nil, let value = target.apply(nil, answer) else { return }
        let date = configuration.clock.dateNow
        _ = store.store(value, for: target.identity, sequence: sequence, notifies: false) {
            version in
            StoredEntry(
                value: value,
                validators: nil,
                cacheFields: [:],
                directives: CacheDirectives(fields: [:], receivedAt: date),
                loadedAt: now,
                response: ResponseSummary(statusCode: 200),
                version: version,
                sequence: sequence,
                cost: 0
            )
        }
    }
}

/// A mutation sent: the number of its optimistic changes, its turn among the
/// webservice's writes, and whether the store tells the loaders of the values it
/// changes (otherwise the sender does, in its own turn).
package struct MutationStart: Sendable {
    let id: UInt64
    /// The webservice's writes, which the turn is among.
    let writes: PendingWrites
    let turn: WriteTurn
    let notifies: Bool
    /// The number of the account signed in when it was sent, with an authenticator.
    var account: UInt64?
    /// How many of its optimistic changes named a resource with no stored value.
    package var changesShownNowhere = 0
    /// Whether an earlier attempt of the write may have reached the server: a server
    /// that honours its `Idempotency-Key` answers with what it answered then.
    var wasSentBefore = false

    /// Whether the answer may not tell the value the server holds now: another write
    /// of the value was under way meanwhile, or the answer may be an earlier one.
    var answerMayBeOutdated: Bool { wasSentBefore || turn.isOverlapped }
}

extension Result where Failure == WebserviceError {
    /// Whether a write sent with this outcome may have been applied by the server:
    /// anything but a refusal it answered, or a connection that was never made.
    fileprivate var mayHaveBeenApplied: Bool {
        isRefusal ? false : mayHaveReachedServer
    }

    /// Whether the write's caller cancelled it.
    fileprivate var isCancellation: Bool {
        if case .failure(.cancelled) = self { true } else { false }
    }

    /// Whether the server, or the kit before sending, refused the write: a status
    /// other than a gateway's `502` or `504`, which may come after the server applied
    /// it.
    fileprivate var isRefusal: Bool {
        switch self {
        case .failure(.badStatus(let failure)): ![502, 504].contains(failure.statusCode)
        case .failure(.authentication), .failure(.queued), .failure(.outboxRefused): true
        default: false
        }
    }
}
