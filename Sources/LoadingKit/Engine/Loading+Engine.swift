import LoadingKitNetworking

extension Loading {
    /// The loader's bookkeeping, created with its first operation.
    var loadingRuntime: LoadingRuntime<ResourceType> {
        if let runtime = loadingState.runtime {
            return runtime
        }
        let runtime = LoadingRuntime<ResourceType> { [weak self] observers in
            guard self != nil else { return false }
            Task { @MainActor [weak self] in
                guard let self else {
                    for observer in observers {
                        observer.finish()
                    }
                    return
                }
                self.adoptObservers(observers)
            }
            return true
        }
        loadingState.runtime = runtime
        return runtime
    }

    /// Takes over the observers of a state the conformer replaced that still listen,
    /// and shows them the new state. What a refinement keeps beside the state, such as
    /// pages, is forgotten unless a load of a resource began on the new state since.
    private func adoptObservers(_ observers: [LoadingRuntime<ResourceType>.Observer]) {
        let runtime = loadingRuntime
        if runtime.stateIdentity == nil {
            Self.loadingLifecycle.forget(self)
        }
        let current = loadingState.detached
        let listening = observers.filter { observer in
            if case .terminated = observer.yield(current) { return false }
            return true
        }
        runtime.adopt(listening)
    }

    /// Changes the state in place, then tells ``loadingStateDidChange(from:to:)`` and
    /// every observer.
    ///
    /// The previous state is kept without its content while `change` runs, so that
    /// the content is uniquely referenced and appending a page does not copy it.
    func updateLoadingState(_ change: (inout LoadingState<ResourceType>) -> Void) {
        let runtime = loadingRuntime
        var previous = loadingState.detached
        previous.content = nil
        change(&loadingState)
        let published = loadingState.detached
        previous.content = published.content
        loadingStateDidChange(from: previous, to: published)
        runtime.broadcast(published)
    }

    /// Runs `fetch` off the main actor as the loader's one operation in flight,
    /// superseding any other; whoever waits for the flight then hands its result to
    /// `apply` on the main actor — unless a newer operation, a cancellation or the
    /// loader's release came first.
    ///
    /// - Parameters:
    ///   - activity: What the state shows while the operation is in flight.
    ///   - identity: The resource whose value replaces the content, if it does.
    ///   - start: Changes the state as the operation starts, with the activity.
    ///   - fetch: The network work, cancelled through the lease it is given; it must
    ///     not hold the loader.
    ///   - apply: Applies the fetched value; what it throws fails the operation.
    ///   - recordFailure: Records a failure somewhere other than the state's error.
    /// - Returns: The operation in flight.
    func perform<Fetched: Sendable>(
        _ activity: LoadingActivity,
        identity: ResourceIdentity? = nil,
        start: (inout LoadingState<ResourceType>) -> Void = { _ in },
        fetch: @escaping @Sendable (FetchLease) async throws -> Fetched,
        apply: @escaping @MainActor (Self, Fetched) throws -> Void,
        recordFailure: (@MainActor (Self, LoadingError) -> Void)? = nil
    ) -> LoadFlight {
        let runtime = loadingRuntime
        let generation = runtime.begin()
        updateLoadingState { state in
            start(&state)
            state.activity = activity
            state.progress = nil
            state.wasCancelled = false
        }
        let relay = ProgressRelay { [weak self] fraction in
            guard let self, self.loadingRuntime.isCurrent(generation) else { return }
            self.updateLoadingState { $0.progress = fraction }
        }
        // The fetch runs on the global executor; the one hop to the main actor is the
        // resumption of whoever waits for it.
        let lease = FetchLease()
        let fetchTask = Task.detached { () -> Result<Fetched, any Error> in
            do {
                return .success(
                    try await TransferProgress.observing(relay.report) { try await fetch(lease) }
                )
            } catch {
                return .failure(error)
            }
        }
        lease.bind { fetchTask.cancel() }
        weak let awaited = runtime
        let reportCancellation: @MainActor @Sendable () -> Void = { [weak self] in
            self?.endCancelled(generation)
        }
        let flight = LoadFlight(generation: generation, identity: identity) {
            lease.cancel()
        } finish: { [weak self] propagatingCancellation in
            let outcome: Result<Fetched, any Error>
            if propagatingCancellation {
                // Marking the operation before cancelling the fetch makes a value that
                // arrives anyway unappliable, whatever the timing.
                outcome = await withTaskCancellationHandler {
                    await fetchTask.value
                } onCancel: {
                    awaited?.cancelAwaited(generation)
                    lease.cancel()
                    // Said at once, not when the fetch ends: a fetch that leads a
                    // request others share goes on for them.
                    Task { @MainActor in reportCancellation() }
                }
                if Task.isCancelled {
                    awaited?.cancelAwaited(generation)
                }
            } else {
                outcome = await fetchTask.value
            }
            guard let self else { return }
            switch self.loadingRuntime.end(generation) {
            case .over: return
            case .cancelled: self.recordCancellation()
            case .current:
                self.complete(with: outcome, apply: apply, recordFailure: recordFailure)
            }
        }
        runtime.attach(flight)
        return flight
    }

    private func complete<Fetched>(
        with outcome: Result<Fetched, any Error>,
        apply: @MainActor (Self, Fetched) throws -> Void,
        recordFailure: (@MainActor (Self, LoadingError) -> Void)?
    ) {
        do {
            try apply(self, try outcome.get())
        } catch {
            guard let failure = LoadingError(error) else {
                recordCancellation()
                return
            }
            recordFailure?(self, failure)
            let now = loadingClock.now
            updateLoadingState { state in
                if recordFailure == nil {
                    state.error = failure
                }
                state.failedAt = now
                state.activity = .idle
                state.progress = nil
            }
            loadDidFail(failure)
        }
    }

    /// Ends operation `generation` as cancelled, unless it ended already.
    private func endCancelled(_ generation: UInt64) {
        if loadingRuntime.end(generation) == .cancelled {
            recordCancellation()
        }
    }

    /// Records that the load in flight ended cancelled and tells
    /// ``loadWasCancelled()``.
    func recordCancellation() {
        updateLoadingState { state in
            state.activity = .idle
            state.progress = nil
            state.wasCancelled = true
        }
        loadWasCancelled()
    }

    /// Validates `value`, configures it and records it as the content.
    ///
    /// - Parameters:
    ///   - value: The new content.
    ///   - prepare: Runs once the value is accepted, before anything changes on screen.
    /// - Throws: ``LoadingError/rejected(_:)`` when ``validate(_:)`` refuses it.
    func applyLoaded(_ value: ResourceType, prepare: () -> Void = {}) throws(LoadingError) {
        do {
            try validate(value)
        } catch {
            throw .rejected(String(describing: error))
        }
        loadingRuntime.identities = .unknown
        loadingRuntime.contentValidators = nil
        prepare()
        let empty = isEmpty(value)
        if !empty || configuresEmptyValues {
            configure(value: value)
        }
        markLoaded { state in
            state.content = value
            state.isEmpty = empty
        }
    }

    /// Records that the content is current — loaded now, no error, nothing in flight —
    /// together with `change`, in one state change.
    func markLoaded(changing change: (inout LoadingState<ResourceType>) -> Void = { _ in }) {
        let now = loadingClock.now
        updateLoadingState { state in
            change(&state)
            state.error = nil
            state.failedAt = nil
            state.activity = .idle
            state.progress = nil
            state.loadedAt = now
        }
    }
}
