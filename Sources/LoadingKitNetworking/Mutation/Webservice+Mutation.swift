extension Webservice {
    /// Sends `mutation`: shows its optimistic changes on the stored values at once,
    /// sends its request, then keeps the changes and invalidates what it names (and the
    /// values it changed) if it succeeds, or takes the changes back exactly if it fails
    /// or is cancelled — keeping every value stored meanwhile.
    ///
    /// ```swift
    /// let saved = try await webservice.send(Mutation(Post.create(draft)).invalidating(.resource(Post.all)))
    /// ```
    ///
    /// - Parameter mutation: What to send and what it changes.
    /// - Returns: The parsed answer.
    /// - Throws: ``WebserviceError`` for every failure.
    public func send<A: Sendable>(_ mutation: Mutation<A>) async throws(WebserviceError) -> A {
        try await complete(mutation, startedAs: showChanges(of: mutation, notifying: true))
    }

    /// Shows the optimistic changes of `mutation` on the stored values, telling the
    /// loaders when `notifying` (otherwise the caller tells them, in its own turn);
    /// returns the number that names the changes.
    package func showChanges<A>(of mutation: Mutation<A>, notifying: Bool) -> UInt64 {
        let id = store.nextSequence()
        for change in mutation.changes {
            store.update(change.identity, notifies: notifying) { entry in
                entry.add(StoredEntry.Edit(id: id, apply: change.apply))
                return true
            }
        }
        return id
    }

    /// Sends `mutation`, whose changes ``showChanges(of:notifying:)`` showed as `id`,
    /// then keeps or takes back the changes and invalidates as ``send(_:)`` says.
    package func complete<A: Sendable>(
        _ mutation: Mutation<A>,
        startedAs id: UInt64
    ) async throws(WebserviceError) -> A {
        let outcome: Result<Fetched<A>, WebserviceError>
        do throws(WebserviceError) {
            // Retried and shared only as the mutation says.
            outcome = .success(
                try await fetch(
                    mutation.resource,
                    lease: nil,
                    retry: mutation.retry,
                    coalesces: mutation.coalesces
                )
            )
        } catch {
            outcome = .failure(error)
        }
        let succeeded = (try? outcome.get()) != nil
        for identity in mutation.changedIdentities {
            store.update(identity) { $0.removeEdit(id, keepingIt: succeeded) }
        }
        if succeeded {
            for invalidation in mutation.invalidations {
                store.invalidate(invalidation)
            }
        }
        let changed = mutation.changedIdentities
        if !changed.isEmpty, succeeded || outcome.isCancelled {
            // The server has the change, or may have it: its own value wins.
            store.invalidate(Invalidation { changed.contains($0) })
        }
        return try outcome.get().value
    }
}

extension Result where Failure == WebserviceError {
    /// Whether the outcome is a cancellation.
    fileprivate var isCancelled: Bool {
        if case .failure(.cancelled) = self { return true }
        return false
    }
}
