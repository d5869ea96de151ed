import LoadingKitNetworking

extension Loading {
    /// Sends `mutation` through the loader's webservice without waiting: its
    /// optimistic changes are in the store and on every screen showing the values it
    /// changes — this one included, and the rows of every list, paged or not, that
    /// stores its items under the items' own resources (``Resource/storingElements(_:as:)``)
    /// — before `send` returns; what it invalidates reloads once it succeeds.
    ///
    /// ```swift
    /// let saving = screen.send(rename) { saving in
    ///     if let error = saving.error { showError(error.description) }
    /// }
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
    public func send<A: Sendable>(
        _ mutation: Mutation<A>,
        completion: (@MainActor (MutationTask<A>) -> Void)? = nil
    ) -> MutationTask<A> {
        let task = MutationTask<A>()
        task.start(mutation, through: webservice, completion: completion)
        return task
    }
}
