import LoadingKitNetworking

extension Loading {
    /// Sends `mutation` through the loader's webservice and returns the server's
    /// answer: its optimistic changes are in the store and on every screen showing the
    /// values it changes — this one included, and the rows of every list, paged or not,
    /// that stores its items under the items' own resources
    /// (``Resource/storingElements(_:as:)``) — before the first suspension; when it
    /// returns, every screen shows the value the mutation ended with, and what it
    /// invalidates reloads.
    ///
    /// ```swift
    /// do {
    ///     let saved = try await screen.send(rename)
    ///     print("Saved “\(saved.title)”")
    /// } catch {
    ///     showError(error.description)  // the change was taken back
    /// }
    /// ```
    ///
    /// To start the mutation without waiting, and read how it ended without catching,
    /// use ``startSending(_:completion:)``.
    ///
    /// Cancelling the calling task cancels the mutation: its change is taken back and
    /// the call throws ``WebserviceError/cancelled``. The loader's own state is not
    /// changed by the mutation itself, only by the values it changes.
    ///
    /// - Parameter mutation: What to send and what it changes.
    /// - Returns: The server's answer.
    /// - Throws: ``LoadingError/webservice(_:)`` with the webservice's error.
    public func send<A: Sendable>(_ mutation: Mutation<A>) async throws(LoadingError) -> A {
        let webservice = webservice
        let start = webservice.beginShowingChanges(of: mutation)
        do {
            return try await webservice.completeShowingAnswer(of: mutation, startedAs: start)
        } catch {
            throw .webservice(error)
        }
    }

    /// Starts sending `mutation` through the loader's webservice without waiting: its
    /// optimistic changes are in the store and on every screen showing the values it
    /// changes — this one included, and the rows of every list, paged or not, that
    /// stores its items under the items' own resources (``Resource/storingElements(_:as:)``)
    /// — before `startSending` returns; what it invalidates reloads once it succeeds.
    ///
    /// ```swift
    /// screen.startSending(rename) { saving in
    ///     if let error = saving.error { showError(error.description) }
    /// }
    /// ```
    ///
    /// Keeping the returned task is optional: the mutation runs to its end and calls
    /// `completion` exactly once either way. Its ``MutationTask/outcome`` says how it
    /// ended — sent, kept in the outbox, failed or cancelled — with nothing to catch:
    ///
    /// ```swift
    /// let saving = screen.startSending(rename)
    /// await saving.finish()
    /// if case .queued = saving.outcome { print("Saved on this device") }
    /// ```
    ///
    /// The loader's own state is not changed by the mutation itself, only by the values
    /// it changes; a failure is reported in the task's ``MutationTask/error``, not to
    /// ``loadDidFail(_:)``. The task does not keep the loader alive.
    ///
    /// - Parameters:
    ///   - mutation: What to send and what it changes.
    ///   - completion: Called on the main actor once the mutation has ended.
    /// - Returns: The mutation's observable state, which also cancels it.
    @discardableResult
    public func startSending<A: Sendable>(
        _ mutation: Mutation<A>,
        completion: (@MainActor (MutationTask<A>) -> Void)? = nil
    ) -> MutationTask<A> {
        let task = MutationTask<A>()
        task.start(mutation, through: webservice, completion: completion)
        return task
    }
}
