import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// How a webservice sends the mutations its ``Outbox`` keeps: written to disk before
/// they are sent, removed once the server answered, sent again when it could not be
/// reached — their optimistic changes held in the store meanwhile.
extension Webservice {
    /// Sends `mutation`, kept until sent, whose turn has come: writes it to the outbox,
    /// then sends it unless it must wait, answering within the outbox's answer wait.
    /// Ends its turn — once sent, when the sending does.
    func completeKept<A: Sendable>(
        _ mutation: Mutation<A>,
        keeping: Mutation<A>.Keeping,
        startedAs start: MutationStart
    ) async throws(WebserviceError) -> A {
        var sendingEndsTurn = false
        defer {
            if !sendingEndsTurn {
                start.writes.end(start.turn, in: mutation.scope)
            }
        }
        guard !Task.isCancelled else {
            conclude(mutation, startedAs: start, after: .failure(.cancelled), wasSent: false)
            throw .cancelled
        }
        let account = configuration.authenticator?.signedInAccount
        if configuration.authenticator != nil, account == nil {
            // No one is signed in: no account to send the write for, later or now.
            conclude(
                mutation,
                startedAs: start,
                after: .failure(.authentication(.signedOut)),
                wasSent: false
            )
            throw .authentication(.signedOut)
        }
        let outbox: Outbox
        let record: OutboxRecord
        do throws(OutboxRefusal) {
            guard let configured = configuration.outbox else { throw .noOutbox }
            guard !keeping.inputFailedToEncode else { throw .inputNotEncodable }
            outbox = configured
            record = try outbox.keep(
                mutation.resource.request,
                scope: mutation.scope,
                kind: keeping.kind,
                input: keeping.input,
                account: account,
                credentials: configuration.credentials
            )
        } catch {
            report(.outboxRefused(error), about: mutation.resource)
            conclude(
                mutation,
                startedAs: start,
                after: .failure(.outboxRefused(error)),
                wasSent: false
            )
            throw .outboxRefused(error)
        }
        hold(mutation, as: start.id, madeBy: record.account)
        report(.writeKept(sequence: record.sequence), about: mutation.resource)
        if outbox.mustWait(record) {
            let write = keptWrite(mutation, record: record, editID: start.id, wasSentBefore: false)
            wait(write, in: outbox, about: mutation.resource)
            throw .queued(record.queuedWrite)
        }
        sendingEndsTurn = true
        let sending = Task {
            defer { start.writes.end(start.turn, in: mutation.scope) }
            return await send(record, of: mutation, startedAs: start, in: outbox, isReplay: false)
                .result
        }
        let answer = await withTaskCancellationHandler {
            await sending.value(within: outbox.answerWait, on: configuration.clock)
        } onCancel: {
            sending.cancel()
        }
        switch answer {
        case .success(let value)?:
            return value
        case .failure(let error)?:
            throw error
        case nil:
            // No answer yet: the caller hears that the write is kept, as for a server
            // that cannot be reached, and the sending goes on.
            report(.writeQueued(sequence: record.sequence), about: mutation.resource)
            throw .queued(record.queuedWrite)
        }
    }

    /// Sends the kept write `record` of `mutation` once, in the turn `start` holds,
    /// and settles it: it leaves the outbox when the server answered or the app
    /// cancelled it, or waits to be sent again — parked in the outbox, its result
    /// ``WebserviceError/queued(_:)``.
    private func send<A: Sendable>(
        _ record: OutboxRecord,
        of mutation: Mutation<A>,
        startedAs start: MutationStart,
        in outbox: Outbox,
        isReplay: Bool
    ) async -> (result: Result<A, WebserviceError>, outcome: KeptOutcome) {
        var resource = mutation.resource
        resource.request = record.request(
            credentialsFrom: mutation.resource.request,
            names: configuration.credentials
        )
        let result: Result<Fetched<A>, WebserviceError>
        // Sent only with the credential of the account that made it.
        result = await Authenticator.$requiredAccount.withValue(record.account) {
            do throws(WebserviceError) {
                return .success(
                    try await fetch(
                        resource,
                        retry: mutation.retry,
                        coalesces: false,
                        settlingWrites: false
                    )
                )
            } catch {
                return .failure(error)
            }
        }
        let outcome = KeptOutcome(result, isReplay: isReplay)
        guard outcome.isFinal else {
            if outcome == .unreachable {
                outbox.noteUnreachable(record.url)
            }
            let write = keptWrite(
                mutation,
                record: record,
                editID: start.id,
                wasSentBefore: start.wasSentBefore || result.mayHaveReachedServer
            )
            wait(write, in: outbox, about: mutation.resource)
            return (.failure(.queued(record.queuedWrite)), outcome)
        }
        store.release(start.id, of: mutation.changedIdentities)
        outbox.remove(record.sequence)
        conclude(mutation, startedAs: start, after: result, wasSent: true)
        if case .failure(.badStatus(let failure)) = result, outcome == .rejected {
            report(
                .writeRejected(sequence: record.sequence, status: failure.statusCode),
                about: mutation.resource
            )
        } else if outcome == .confirmed {
            report(.writeConfirmed(sequence: record.sequence), about: mutation.resource)
        }
        return (result.map { $0.value }, outcome)
    }

    /// Leaves `write` in the outbox, to be sent again.
    private func wait<A>(_ write: KeptWrite, in outbox: Outbox, about resource: Resource<A>) {
        outbox.park(write.record.sequence, as: write)
        report(.writeQueued(sequence: write.record.sequence), about: resource)
    }

    /// Holds the optimistic changes of `mutation`, numbered `id`, in the store until
    /// the write ends: shown over every value of the resources it changes, stored now
    /// or later while `account`, which made them, is signed in.
    private func hold<A>(_ mutation: Mutation<A>, as id: UInt64, madeBy account: String?) {
        for change in mutation.changes {
            store.hold(
                StoredEntry.Edit(id: id, apply: change.apply),
                for: change.identity,
                madeBy: account
            )
        }
    }

    /// The kept write of `mutation`, recorded as `record`, whose optimistic changes
    /// are numbered `editID`: sent again in its own turn, as recorded, with the
    /// credential fields of the mutation's request. When it `wasSentBefore`, its answer
    /// may be the server's answer to an earlier attempt: what it changes is revalidated
    /// after it.
    private func keptWrite<A: Sendable>(
        _ mutation: Mutation<A>,
        record: OutboxRecord,
        editID: UInt64,
        wasSentBefore: Bool
    ) -> KeptWrite {
        KeptWrite(record: record, changesValue: mutation.changesValue(of:)) { webservice in
            let writes = webservice.writes
            let turn = writes.enqueue(
                in: mutation.scope,
                changing: mutation.touchedIdentities,
                mutation.changesValue(of:)
            )
            await turn.previousEnded {
                webservice.report(.waitingForMutation, about: mutation.resource)
            }
            defer { writes.end(turn, in: mutation.scope) }
            guard let outbox = webservice.configuration.outbox else { return .waits }
            let start = MutationStart(
                id: editID,
                writes: writes,
                turn: turn,
                notifies: true,
                account: webservice.configuration.authenticator?.account,
                wasSentBefore: wasSentBefore
            )
            return await webservice.send(
                record,
                of: mutation,
                startedAs: start,
                in: outbox,
                isReplay: true
            ).outcome
        }
    }

    /// The write `record`, kept before a relaunch, rebuilt as `mutation`: its
    /// optimistic changes are held in the store at once. It may have been sent when
    /// the process ended.
    func restoredWrite<A: Sendable>(_ mutation: Mutation<A>, record: OutboxRecord) -> KeptWrite {
        let id = store.nextSequence()
        hold(mutation, as: id, madeBy: record.account)
        return keptWrite(mutation, record: record, editID: id, wasSentBefore: true)
    }

    /// The write `record`, kept before a relaunch with no kind to rebuild it by: sent
    /// again as recorded, with no change shown and no answer stored.
    func restoredWrite(recordedOnly record: OutboxRecord) -> KeptWrite {
        var mutation = Mutation(
            Resource<Void>(
                request: record.request(credentialsFrom: nil, names: configuration.credentials)
            ) { _, _ in }
        )
        if let scope = record.scope {
            mutation = mutation.scoped(scope)
        }
        return keptWrite(
            mutation,
            record: record,
            editID: store.nextSequence(),
            wasSentBefore: true
        )
    }
}
