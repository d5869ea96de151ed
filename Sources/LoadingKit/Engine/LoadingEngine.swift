import LoadingKitNetworking

/// What runs every load of one loader — a plain load, a first page, a reload of pages,
/// a page, a refresh — in four steps, in the order of this file:
///
/// 1. **Begin** (main actor): the policy and the resource's identity decide whether
///    the load is skipped, joins the one in flight, or starts; a load of another
///    resource clears what belonged to the previous one.
/// 2. **Run** (off the main actor): the fetch, in a task of its own, cancellable
///    through its lease; a newer operation supersedes it.
/// 3. **Complete** (main actor, in whoever waits for the flight): a superseded or
///    cancelled operation ends without touching the content; a failure is recorded
///    keeping it.
/// 4. **Apply** (main actor): validate, configure, record the state, report it.
///
/// The protocols' default implementations drive it; refinements plug in through the
/// closures they pass to ``begin(_:identity:as:policy:apply:)`` and
/// ``run(_:identity:forAnotherResource:fetch:apply:recordFailure:)`` and through
/// ``LoadingLifecycle``, never by casting the loader. Its state and bookkeeping — the
/// current operation, the resource the state belongs to, the observers — are the
/// loader's ``LoadingCore``.
@MainActor
struct LoadingEngine<Loader: Loading> {
    typealias Value = Loader.ResourceType

    let loader: Loader

    /// The loader's bookkeeping.
    var core: LoadingCore<Value> { loader.loading }

    // MARK: - 1. Begin

    /// Starts a load of `resource`, whose value replaces the content, as `policy`
    /// says; `resource` becomes the one a reload loads again. When `change` is given,
    /// ``Loading/didApply(_:)`` is told it once the load has applied.
    func load(
        _ resource: Resource<Value>,
        policy: LoadPolicy,
        reporting change: ContentChange? = nil
    ) -> LoadStart {
        let core = self.core
        core.lastResource = resource
        let identity = resource.identity
        showStoredValue(of: resource, identity: identity, policy: policy, in: core)
        return begin(resource, identity: identity, policy: policy) { loader, fetched in
            try loader.loadingEngine.applyShared(fetched, of: identity)
            if let change {
                loader.didApply(change)
            }
        }
    }

    /// Starts loading `resource`, whose value becomes the content of the resource
    /// `content` names (by default `resource` itself), as `policy` says — unless the
    /// policy skips it or joins a load in flight — and hands what was fetched to
    /// `apply`. A load of another resource than the state's clears the state's content
    /// as it starts.
    func begin<Loaded: Sendable>(
        _ resource: Resource<Loaded>,
        identity fetched: ResourceIdentity? = nil,
        as content: (ResourceIdentity) -> ResourceIdentity = { $0 },
        policy: LoadPolicy,
        apply: @escaping @MainActor (Loader, Fetched<Loaded>) throws -> Void
    ) -> LoadStart {
        let fetchedIdentity = fetched ?? resource.identity
        let identity = content(fetchedIdentity)
        if let existing = existingLoad(for: policy, of: identity) {
            return existing
        }
        let core = self.core
        let previous = core.stateIdentity
        core.stateIdentity = identity
        let switched = previous != nil && previous != identity
        if switched {
            core.forgetContentMetadata()
        }
        subscribe(to: fetchedIdentity, in: core)
        let request = policy.ignoresCache ? resource.ignoringCache() : resource
        let webservice = loader.webservice
        let flight = run(
            switched ? .loading : activity(for: policy),
            identity: identity,
            forAnotherResource: switched
        ) { lease in
            try await webservice.fetch(request, identity: fetchedIdentity, lease: lease)
        } apply: { loader, fetched in
            try apply(loader, fetched)
        }
        return .started(flight)
    }

    /// What `policy` makes of the current state for a load of `identity`: `.skipped`
    /// or `.joined` when no new load is needed, `nil` when one must start. Only a load
    /// of the same resource is joined or found current; a refresh or a page works on
    /// the resource of the state.
    func existingLoad(for policy: LoadPolicy, of identity: ResourceIdentity?) -> LoadStart? {
        guard policy.kind == .ifNeeded else { return nil }
        let core = self.core
        if let inFlight = core.currentFlight {
            let resource = inFlight.identity ?? core.stateIdentity
            return resource == identity ? .joined(inFlight) : nil
        }
        guard core.stateIdentity == identity, isCurrent else { return nil }
        report(.skipped)
        return .skipped
    }

    /// Whether ``LoadPolicy/ifNeeded`` finds nothing to do: the content is fresh, or
    /// the last load failed less than ``Loading/failureRetryInterval`` ago. Freshness
    /// is ``Loading/maxAge`` when set, else what the content's response said.
    private var isCurrent: Bool {
        let state = loader.loadingState
        let now = loader.loadingClock.continuousNow
        if state.error != nil || state.content == nil {
            guard let failedAt = state.failedAt else { return false }
            return failedAt.duration(to: now) < loader.failureRetryInterval
        }
        guard let loadedAt = state.loadedAt else { return true }
        if storedValueIsStale {
            return false
        }
        let age = loadedAt.duration(to: now)
        if let maxAge = loader.maxAge {
            return age < maxAge
        }
        let directives = core.contentDirectives
        if directives?.requiresRevalidation == true || directives?.forbidsStoring == true {
            return false
        }
        return directives?.freshnessLifetime.map { age < $0 } ?? true
    }

    /// The activity a new load under `policy` shows.
    func activity(for policy: LoadPolicy) -> LoadingActivity {
        switch policy.kind {
        case .force: .loading
        case .background: .reloading
        case .ifNeeded: loader.loadingState.content == nil ? .loading : .reloading
        }
    }

    // MARK: - 2. Run

    /// Runs `fetch` off the main actor as the loader's one operation in flight,
    /// superseding any other; whoever waits for the flight then completes it on the
    /// main actor — unless a newer operation, a cancellation or the loader's release
    /// came first.
    ///
    /// - Parameters:
    ///   - activity: What the state shows while the operation is in flight.
    ///   - identity: The resource whose value replaces the content, if it does.
    ///   - forAnotherResource: Whether the operation starts on another resource than
    ///     the state's, clearing what the state showed of the previous one.
    ///   - fetch: The network work, cancelled through the lease it is given; it must
    ///     not hold the loader.
    ///   - apply: Applies the fetched value; what it throws fails the operation.
    ///   - recordFailure: Records a failure somewhere other than the state's error.
    /// - Returns: The operation in flight.
    func run<Output: Sendable>(
        _ activity: LoadingActivity,
        identity: ResourceIdentity? = nil,
        forAnotherResource: Bool = false,
        fetch: @escaping @Sendable (FetchLease) async throws -> Output,
        apply: @escaping @MainActor (Loader, Output) throws -> Void,
        recordFailure: (@MainActor (Loader, LoadingError) -> Void)? = nil
    ) -> LoadFlight {
        let core = self.core
        if loader.webservice.isMonitored, let superseded = core.currentFlight {
            report(.superseded, about: superseded.identity)
        }
        let generation = core.begin()
        update(in: core) { $0.begin(activity, forAnotherResource: forAnotherResource) }
        let relay = ProgressRelay { [weak loader] fraction in
            guard let loader, loader.loading.isCurrent(generation) else { return }
            loader.loadingEngine.update { $0.progress(fraction) }
        }
        // The fetch runs on the global executor; the one hop to the main actor is the
        // resumption of whoever waits for it.
        let lease = FetchLease()
        let fetchTask = Task.detached { () -> Result<Output, any Error> in
            do {
                return .success(
                    try await TransferProgress.observing(relay.report) { try await fetch(lease) }
                )
            } catch {
                return .failure(error)
            }
        }
        lease.bind { fetchTask.cancel() }
        weak let awaited = core
        let reportCancellation: @MainActor @Sendable () -> Void = { [weak loader] in
            loader?.loadingEngine.endCancelled(generation)
        }
        let flight = LoadFlight(generation: generation, identity: identity) {
            lease.cancel()
        } finish: { [weak loader] propagatingCancellation in
            let outcome: Result<Output, any Error>
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
            loader?.loadingEngine.complete(
                generation,
                with: outcome,
                apply: apply,
                recordFailure: recordFailure
            )
        }
        core.attach(flight)
        return flight
    }

    // MARK: - 3. Complete

    /// Ends operation `generation` with `outcome`: nothing when it was superseded or
    /// ended already, the cancellation when its awaiting task was cancelled, else the
    /// value applied or the failure recorded.
    private func complete<Output>(
        _ generation: UInt64,
        with outcome: Result<Output, any Error>,
        apply: @MainActor (Loader, Output) throws -> Void,
        recordFailure: (@MainActor (Loader, LoadingError) -> Void)?
    ) {
        switch core.end(generation) {
        case .over:
            return
        case .cancelled:
            recordCancellation()
            return
        case .current:
            break
        }
        do {
            try apply(loader, try outcome.get())
        } catch {
            guard let failure = LoadingError(error) else {
                recordCancellation()
                return
            }
            recordFailure?(loader, failure)
            let now = loader.loadingClock.continuousNow
            update { $0.fail(recordFailure == nil ? failure : nil, at: now) }
            loader.loadDidFail(failure)
        }
        core.startDeferredPages()
    }

    /// Ends operation `generation` as cancelled, unless it ended already.
    private func endCancelled(_ generation: UInt64) {
        if core.end(generation) == .cancelled {
            recordCancellation()
        }
    }

    /// Records that the load in flight ended cancelled and tells
    /// ``Loading/loadWasCancelled()``.
    func recordCancellation() {
        core.dropDeferredPages()
        report(.cancelled)
        update { $0.cancel() }
        loader.loadWasCancelled()
    }

    // MARK: - 4. Apply

    /// Applies `fetched` with `apply`, unless it is a `304` to the validators the
    /// content came with: then the content is kept and only the load time recorded.
    func apply<Loaded>(
        _ fetched: Fetched<Loaded>,
        with apply: (Loaded) throws(LoadingError) -> Void
    ) throws(LoadingError) {
        let core = self.core
        if fetched.isNotModified, loader.loadingState.content != nil,
            fetched.validators == core.contentValidators
        {
            core.contentDirectives = fetched.cacheDirectives
            markLoaded()
            return
        }
        try apply(fetched.value)
        core.contentValidators = fetched.validators
        core.contentDirectives = fetched.cacheDirectives
    }

    /// Validates `value`, configures it and records it as the content.
    ///
    /// - Parameters:
    ///   - value: The new content.
    ///   - merged: Whether `value` is the content with new items merged in, rather than
    ///     a value replacing it: the items local edits removed stay out of later merges.
    ///   - prepare: Runs once the value is accepted, before anything changes on screen.
    /// - Throws: ``LoadingError/rejected(_:)`` when ``Loading/validate(_:)`` refuses it.
    func applyLoaded(
        _ value: Value,
        merged: Bool = false,
        prepare: () -> Void = {}
    ) throws(LoadingError) {
        do {
            try loader.validate(value)
        } catch {
            throw .rejected(String(describing: error))
        }
        let core = self.core
        core.identities = .unknown
        if !merged {
            core.forgetRemovedItems()
        }
        core.contentValidators = nil
        core.contentVersion = nil
        core.mirrorsStoredValue = false
        prepare()
        let empty = configureIfShown(value)
        let now = loader.loadingClock.continuousNow
        update { $0.apply(value, isEmpty: empty, at: now) }
    }

    /// Calls ``Loading/configure(value:)`` with `value` unless it is empty and the
    /// loader does not configure empty values; returns whether it is empty.
    func configureIfShown(_ value: Value) -> Bool {
        let empty = loader.isEmpty(value)
        if !empty || loader.configuresEmptyValues {
            loader.configure(value: value)
        }
        return empty
    }

    /// Records that the content is current and unchanged: loaded now, no error,
    /// nothing in flight.
    func markLoaded() {
        let now = loader.loadingClock.continuousNow
        update { $0.confirm(at: now) }
    }

    /// Changes the state in place, then tells ``Loading/loadingStateDidChange(from:to:)``
    /// and every observer.
    ///
    /// The previous state is kept without its content while `change` runs, so that
    /// the content is uniquely referenced and appending a page does not copy it.
    func update(_ change: (inout LoadingState<Value>) -> Void) {
        update(in: core, change)
    }

    /// ``update(_:)`` with the loader's core, when the caller holds it already.
    ///
    /// - Parameters:
    ///   - core: The loader's core, whose state changes.
    ///   - change: A transition of the state.
    func update(
        in core: LoadingCore<Value>,
        _ change: (inout LoadingState<Value>) -> Void
    ) {
        var previous = core.current
        previous.stage { $0 = nil }
        core.change(change)
        let published = core.current
        previous.stage { $0 = published.content }
        loader.loadingStateDidChange(from: previous, to: published)
        core.broadcast()
    }
}

extension Loading {
    /// The engine that runs this loader's loads.
    var loadingEngine: LoadingEngine<Self> { LoadingEngine(loader: self) }
}
