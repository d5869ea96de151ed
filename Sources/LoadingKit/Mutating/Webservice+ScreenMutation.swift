import LoadingKitNetworking

extension Webservice {
    /// Starts `mutation` for a screen: its optimistic changes are in the store and on
    /// every screen showing the values it changes when this returns.
    @MainActor
    func beginShowingChanges<A>(of mutation: Mutation<A>) -> MutationStart {
        let start = begin(mutation, notifying: false)
        let changed = mutation.changedIdentities
        if !changed.isEmpty {
            let shared = SharedValues.of(self)
            for identity in changed {
                shared.propagate(identity, in: store)
            }
        }
        return start
    }

    /// Sends `mutation`, started as `start`; when it returns, every screen showing a
    /// value the mutation changed shows the value it ended with — the answer, the kept
    /// change, or the value from before.
    @MainActor
    func completeShowingAnswer<A: Sendable>(
        of mutation: Mutation<A>,
        startedAs start: MutationStart
    ) async throws(WebserviceError) -> A {
        let outcome: Result<A, WebserviceError>
        do throws(WebserviceError) {
            outcome = .success(try await complete(mutation, startedAs: start))
        } catch {
            outcome = .failure(error)
        }
        let touched = mutation.touchedIdentities
        if !touched.isEmpty {
            let answered = (try? outcome.get()) == nil ? [] : mutation.answeredIdentities
            let shared = SharedValues.of(self)
            for identity in touched {
                shared.propagate(identity, in: store, isAnswer: answered.contains(identity))
            }
        }
        return try outcome.get()
    }
}
