import LoadingKitNetworking

/// Every load of a screen — plain, first page, pages, page, refresh — in four steps, in
/// the order of this file: **begin** (main actor: skip, join or start; another resource
/// clears the previous one's), **run** (off the main actor, as the screen's interest in
/// a ``Fetch`` — the resource's one fetch for a plain load, a fetch of its own for
/// pages and refreshes — left when superseded), **complete** (main actor, in whoever
/// waits for the operation: superseded or cancelled ends untouched, a failure keeps the
/// content) and **apply** (main actor: validate, configure, record, report).
///
/// The protocols' default implementations drive it, passing the screen; refinements
/// plug in through the closures they pass to `begin` and `run` and through
/// `LoaderKind`, never by casting the screen.
extension LoadingCore {
    // MARK: - 1. Begin

    /// Starts a load of `resource`, whose value replaces the content, as `policy`
    /// says; `resource` becomes the one a reload loads again. When `change` is given,
    /// ``Loading/didApply(_:)`` is told it once the load has applied.
    func load(
        _ resource: Resource<Value>,
        policy: LoadPolicy,
        reporting change: ContentChange? = nil,
        for loader: some Loading<Value>
    ) -> LoadStart {
        lastResource = resource
        let identity = resource.identity
        showStoredValue(of: resource, identity: identity, policy: policy, for: loader)
        return begin(resource, identity: identity, policy: policy, for: loader) {
            loader,
            fetched in
            try loader.loading.applyShared(fetched, of: identity, for: loader)
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
    func begin<Loader: Loading, Loaded: Sendable>(
        _ resource: Resource<Loaded>,
        identity fetched: ResourceIdentity? = nil,
        as content: (ResourceIdentity) -> ResourceIdentity = { $0 },
        policy: LoadPolicy,
        for loader: Loader,
        apply: @escaping @MainActor (Loader, Fetched<Loaded>) throws -> Void
    ) -> LoadStart where Loader.ResourceType == Value {
        checkSettings(of: loader)
        let fetchedIdentity = fetched ?? resource.identity
        let identity = content(fetchedIdentity)
        if let existing = existingLoad(for: policy, of: identity, for: loader) {
            return existing
        }
        let previous = stateIdentity
        stateIdentity = identity
        let switched = previous != nil && previous != identity
        if switched {
            forgetContentMetadata()
        }
        subscribe(to: fetchedIdentity, for: loader)
        let request = policy.ignoresCache ? resource.ignoringCache() : resource
        let webservice = loader.webservice
        let operation = run(
            switched ? .loading : activity(for: policy),
            identity: identity,
            forAnotherResource: switched,
            keepingPrevious: policy.keepsPreviousContent,
            for: loader
        ) { progress, discarded in
            // Joined now, on the main actor: no request of the resource can end between
            // this decision and the fetch.
            webservice.interest(
                in: request,
                identity: fetchedIdentity,
                progress: progress,
                discarded: discarded
            )
        } apply: { loader, fetched in
            try apply(loader, fetched)
        }
        return .started(operation)
    }

    /// What `policy` makes of the current state for a load of `identity`: `.skipped`
    /// or `.joined` when no new load is needed, `nil` when one must start. Only a load
    /// of the same resource is joined or found current; a refresh or a page works on
    /// the resource of the state.
    func existingLoad(
        for policy: LoadPolicy,
        of identity: ResourceIdentity?,
        for loader: some Loading<Value>
    ) -> LoadStart? {
        guard policy.kind == .ifNeeded else { return nil }
        if let inFlight = currentOperation {
            let resource = inFlight.identity ?? stateIdentity
            return resource == identity ? .joined(inFlight) : nil
        }
        guard stateIdentity == identity, isContentCurrent(for: loader) else { return nil }
        skip(for: loader)
        return .skipped
    }

    // MARK: - 2. Run

    /// Runs `fetch` off the main actor, in a fetch of its own, as the screen's one
    /// operation in flight; see ``run(_:identity:forAnotherResource:keepingPrevious:for:start:apply:recordFailure:)``.
    func run<Loader: Loading, Output: Sendable>(
        _ activity: LoadingActivity,
        identity: ResourceIdentity? = nil,
        for loader: Loader,
        fetch: @escaping @Sendable () async throws -> Output,
        apply: @escaping @MainActor (Loader, Output) throws -> Void,
        recordFailure: (@MainActor (Loader, LoadingError) -> Void)? = nil
    ) -> LoadOperation where Loader.ResourceType == Value {
        run(
            activity,
            identity: identity,
            for: loader,
            start: { progress, discarded in
                Fetch.start(progress: progress, discarded: discarded) {
                    do {
                        return Result<Output, any Error>.success(try await fetch())
                    } catch {
                        return .failure(error)
                    }
                }
            },
            apply: apply,
            recordFailure: recordFailure
        )
    }

    /// Runs the screen's interest in a fetch, which `start` makes, as its one operation
    /// in flight, superseding any other; whoever waits for the operation then completes it
    /// on the main actor — unless a newer operation, a cancellation or the screen's
    /// release came first. The race-freedom argument is in
    /// `LoadingCore+Operations.swift`.
    ///
    /// - Parameters:
    ///   - activity: What the state shows while the operation is in flight.
    ///   - identity: The resource whose value replaces the content, if it does.
    ///   - forAnotherResource: Whether the operation starts on another resource than
    ///     the state's, clearing what the state showed of the previous one.
    ///   - keepingPrevious: Whether its content stays shown, as previous, instead.
    ///   - loader: The screen.
    ///   - start: Makes the screen's interest in the fetch, given the progress to
    ///     report and what to run when the fetch ends after the screen left; the work
    ///     must not hold the screen.
    ///   - apply: Applies the fetched value; what it throws fails the operation.
    ///   - recordFailure: Records a failure somewhere other than the state's error.
    /// - Returns: The operation in flight.
    func run<Loader: Loading, Output: Sendable, Failure: Error>(
        _ activity: LoadingActivity,
        identity: ResourceIdentity? = nil,
        forAnotherResource: Bool = false,
        keepingPrevious: Bool = false,
        for loader: Loader,
        start: (
            _ progress: @escaping TransferProgress.Handler,
            _ discarded: (@Sendable () -> Void)?
        ) -> FetchInterest<Result<Output, Failure>>,
        apply: @escaping @MainActor (Loader, Output) throws -> Void,
        recordFailure: (@MainActor (Loader, LoadingError) -> Void)? = nil
    ) -> LoadOperation where Loader.ResourceType == Value {
        checkSettings(of: loader)
        if loader.webservice.isMonitored, let superseded = currentOperation {
            report(.superseded, about: superseded.identity, for: loader)
        }
        let generation = begin()
        let clears = forAnotherResource && !keepingPrevious && current.hasContent
        update(for: loader) {
            $0.begin(
                activity,
                forAnotherResource: forAnotherResource,
                keepingPrevious: keepingPrevious
            )
        }
        if clears {
            loader.contentWasCleared()
        }
        let relay = ProgressRelay { [weak loader] fraction in
            guard let loader, loader.loading.isCurrent(generation) else { return }
            loader.loading.update(for: loader) { $0.progress(fraction) }
        }
        let webservice = loader.webservice
        let reported = identity ?? stateIdentity
        let discarded: (@Sendable () -> Void)? =
            webservice.isMonitored
            ? { @Sendable in webservice.report(.discarded, about: reported, loader: Loader.self) }
            : nil
        let interest = start(relay.report, discarded)
        weak let awaited = self
        let operation = LoadOperation(generation: generation, identity: identity) {
            interest.leave()
        } finish: { [weak loader] propagatingCancellation in
            // Marking the operation before leaving the fetch makes a value that arrives
            // anyway unappliable, whatever the timing. The starter and the loads that
            // joined it stop waiting at once: a fetch other screens share goes on.
            let stopWaiting: @Sendable () -> Void = { awaited?.cancelAwaited(generation) }
            let fetched = await interest.wait(onCancel: propagatingCancellation ? stopWaiting : nil)
            if propagatingCancellation, Task.isCancelled {
                awaited?.cancelAwaited(generation)
            }
            guard let loader else { return }
            guard let fetched else {
                if loader.loading.end(generation) == .cancelled {
                    loader.loading.recordCancellation(for: loader)
                }
                return
            }
            loader.loading.complete(
                generation,
                with: fetched.mapError { $0 as any Error },
                for: loader,
                apply: apply,
                recordFailure: recordFailure
            )
        }
        attach(operation)
        return operation
    }

    // MARK: - 3. Complete

    /// Ends operation `generation` with `outcome`: nothing when it was superseded or
    /// ended already, the cancellation when its awaiting task was cancelled, else the
    /// value applied or the failure recorded; then starts the pages held for it.
    private func complete<Loader: Loading, Output>(
        _ generation: UInt64,
        with outcome: Result<Output, any Error>,
        for loader: Loader,
        apply: @MainActor (Loader, Output) throws -> Void,
        recordFailure: (@MainActor (Loader, LoadingError) -> Void)?
    ) where Loader.ResourceType == Value {
        switch end(generation) {
        case .over:
            return
        case .cancelled:
            recordCancellation(for: loader)
            return
        case .current:
            break
        }
        do {
            try apply(loader, try outcome.get())
        } catch {
            guard let failure = LoadingError(error) else {
                recordCancellation(for: loader)
                return
            }
            recordFailure?(loader, failure)
            let now = loader.loadingClock.continuousNow
            record(.failed(at: loader.webservice.configuration.clock.continuousNow))
            update(for: loader) { $0.fail(recordFailure == nil ? failure : nil, at: now) }
            loader.loadDidFail(failure)
        }
        startDeferredPages()
        if loader.revalidationInterval != nil {
            schedulePoll(for: loader)
        }
    }

    // MARK: - 4. Apply

    /// Applies `fetched` with `apply`, unless it is a `304` to the validators the
    /// content came with: then the content is kept and only the load time recorded.
    func apply<Loaded>(
        _ fetched: Fetched<Loaded>,
        for loader: some Loading<Value>,
        with apply: (Loaded) throws(LoadingError) -> Void
    ) throws(LoadingError) {
        if fetched.isNotModified, current.showsOwnContent, fetched.validators == contentValidators {
            record(.freshness(fetched.cacheDirectives))
            markLoaded(for: loader)
            return
        }
        try apply(fetched.value)
        record(
            .answered(validators: fetched.validators, directives: fetched.cacheDirectives)
        )
    }

    /// Validates `value`, configures it and records it as the content.
    ///
    /// - Parameters:
    ///   - value: The new content.
    ///   - merged: Whether `value` is the content with new items merged in, rather than
    ///     a value replacing it: the items local edits removed stay out of later merges.
    ///   - loader: The screen that shows it.
    ///   - prepare: Runs once the value is accepted, before anything changes on screen.
    /// - Throws: ``LoadingError/rejected(_:)`` when ``Loading/validate(_:)`` refuses it.
    func applyLoaded(
        _ value: Value,
        merged: Bool = false,
        for loader: some Loading<Value>,
        prepare: () -> Void = {}
    ) throws(LoadingError) {
        do {
            try loader.validate(value)
        } catch {
            throw .rejected(String(describing: error))
        }
        identities = .unknown
        if !merged {
            forgetRemovedItems()
        }
        record(.replaced)
        prepare()
        let empty = configureIfShown(value, for: loader)
        let now = loader.loadingClock.continuousNow
        update(for: loader) { $0.apply(value, isEmpty: empty, at: now) }
    }

    /// Calls ``Loading/configure(value:)`` with `value` unless it is empty and the
    /// screen does not configure empty values; returns whether it is empty.
    func configureIfShown(_ value: Value, for loader: some Loading<Value>) -> Bool {
        let empty = loader.isEmpty(value)
        if !empty || loader.configuresEmptyValues {
            loader.configure(value: value)
        }
        return empty
    }

    /// Records the content current and unchanged: loaded now, nothing in flight.
    func markLoaded(for loader: some Loading<Value>) {
        let now = loader.loadingClock.continuousNow
        update(for: loader) { $0.confirm(at: now) }
    }
}
