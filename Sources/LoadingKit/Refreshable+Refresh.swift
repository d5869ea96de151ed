import LoadingKitNetworking

// MARK: - API

extension Refreshable {
    /// Refreshes the content: fetches the newest items off the main actor, merges them
    /// with ``mergeRefresh(_:into:)``, configures the result and reports the change to
    /// ``Loading/didApply(_:)``. Returns when the refresh has ended.
    ///
    /// ```swift
    /// await feed.refresh()
    /// ```
    ///
    /// The content stays visible throughout, with activity
    /// ``LoadingActivity/refreshing`` and no loading placeholder. With nothing loaded
    /// yet, a refresh is a first load. A refresh while one is in flight joins it; a
    /// refresh supersedes a background reload or a next page in flight. A failed
    /// refresh keeps the content, records the error and calls
    /// ``Loading/loadDidFail(_:)``.
    public func refresh() async {
        await beginRefresh().finish()
    }

    /// Starts a refresh without waiting, for callers that are not async.
    ///
    /// - Parameter completion: Called on the main actor with the state once the
    ///   refresh has ended, unless the loader was released.
    /// - Returns: A handle that cancels the refresh.
    @discardableResult
    public func startRefreshing(
        completion: (@MainActor (LoadingState<ResourceType>) -> Void)? = nil
    ) -> LoadTask {
        handOut(beginRefresh(), completion: completion)
    }
}

// MARK: - Refreshing

/// What the pages of a refresh came to.
private struct RefreshOutcome<Value: Sendable>: Sendable {
    let content: Value
    let change: ContentChange
}

/// What a refresh does after a page: finish, or fetch the following page.
private enum RefreshStep<Value: Sendable>: Sendable {
    case done(RefreshOutcome<Value>)
    case follow(Resource<Value>)
}

extension Refreshable {
    private func beginRefresh() -> LoadStart {
        let state = loadingState
        if let inFlight = loadingRuntime.currentFlight,
            state.activity == .refreshing || (state.content == nil && state.activity == .loading)
        {
            return .joined(inFlight)
        }
        guard let content = state.content else {
            return beginFirstLoad()
        }
        let anchor = refreshAnchor(of: content)
        let first = refreshResource(newerThan: anchor)
        let webservice = self.webservice
        let limit = max(1, refreshPageLimit)
        let flight = perform(.refreshing) { [weak self] lease in
            var pages: [ResourceType] = []
            var resource = first
            while true {
                pages.append(try await webservice.fetch(resource, lease: lease).value)
                let step = await self?.refreshStep(
                    pages,
                    content: content,
                    anchor: anchor,
                    canFollow: pages.count < limit
                )
                switch step {
                case .done(let outcome): return outcome
                case .follow(let next): resource = next
                case nil: throw CancellationError()
                }
            }
        } apply: { loader, outcome in
            try loader.applyRefresh(outcome)
        }
        return .started(flight)
    }

    private func beginFirstLoad() -> LoadStart {
        let resource = refreshResource(newerThan: nil)
        loadingRuntime.lastResource = resource
        return beginLoad(resource, policy: .force) { loader, fetched in
            try loader.apply(fetched) { (value) throws(LoadingError) in
                try loader.applyLoaded(value)
            }
            loader.didApply(.replaced)
        }.start
    }

    private func refreshStep(
        _ pages: [ResourceType],
        content: ResourceType,
        anchor: RefreshAnchor?,
        canFollow: Bool
    ) -> RefreshStep<ResourceType> {
        switch mergeRefresh(pages, into: content) {
        case .merged(let merged, let change):
            return .done(RefreshOutcome(content: merged, change: change))
        case .gap(let replacement):
            if canFollow, let last = pages.last,
                let next = refreshResource(following: last, newerThan: anchor)
            {
                return .follow(next)
            }
            return .done(RefreshOutcome(content: replacement, change: .replaced))
        }
    }

    private func applyRefresh(_ outcome: RefreshOutcome<ResourceType>) throws(LoadingError) {
        guard outcome.change != .none else {
            markLoaded()
            didApply(.none)
            return
        }
        try applyLoaded(outcome.content, replacing: outcome.change == .replaced)
        didApply(outcome.change)
    }
}
