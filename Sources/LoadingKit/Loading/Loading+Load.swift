import LoadingKitNetworking

// MARK: - API

extension Loading {
    /// Loads `resource` as `policy` says and applies the value: ``validate(_:)``, then
    /// ``configure(value:)``, then the state. Returns when the load has ended: applied,
    /// failed, superseded or cancelled — a superseded or cancelled load returns at
    /// once, even when another screen still shares its request.
    ///
    /// ```swift
    /// await screen.load(resource: Episode.resource(id: 1))                  // if needed
    /// await screen.load(resource: Episode.resource(id: 1), policy: .force)  // always
    /// ```
    ///
    /// A newer load supersedes this one: its response is then never applied. With
    /// ``LoadPolicy/ifNeeded`` a load of the same resource (the same
    /// ``Resource/identity``) already in flight is joined rather than repeated, and
    /// fresh content of the same resource is kept. A resource of another identity is
    /// always loaded: the content, error and load time of the previous resource are
    /// cleared as it starts, and the loading placeholder shows until it arrives — the
    /// state never presents one resource's value as another's. With
    /// ``LoadPolicy/keepingPreviousContent`` the previous content stays shown instead,
    /// marked ``LoadingState/isPreviousContent``, until the new value applies.
    /// Cancelling the calling
    /// task cancels the load: ``configure(value:)`` is then not called, whenever the
    /// response arrives, and the state records ``LoadingState/wasCancelled``.
    ///
    /// - Parameters:
    ///   - resource: What to load.
    ///   - policy: When to send a request; ``LoadPolicy/ifNeeded`` by default.
    public func load(resource: Resource<ResourceType>, policy: LoadPolicy = .ifNeeded) async {
        await Self.kind.load(self, resource, policy).finish()
    }

    /// Starts loading `resource` without waiting, for callers that are not async, like
    /// a view's reload button.
    ///
    /// ```swift
    /// screen.startLoading(resource: feed, policy: .force) { state in
    ///     refreshControl.endRefreshing()
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - resource: What to load.
    ///   - policy: When to send a request; ``LoadPolicy/ifNeeded`` by default.
    ///   - completion: Called on the main actor with the state once the load has ended
    ///     (also when it was skipped, superseded or cancelled), unless the loader was
    ///     released.
    /// - Returns: A handle that cancels the load — when this call started it; a load
    ///   it joined goes on for whoever started it.
    @discardableResult
    public func startLoading(
        resource: Resource<ResourceType>,
        policy: LoadPolicy = .ifNeeded,
        completion: (@MainActor (LoadingState<ResourceType>) -> Void)? = nil
    ) -> LoadTask {
        handOut(Self.kind.load(self, resource, policy), completion: completion)
    }

    /// Cancels the load in flight. The state returns to what it was before the load
    /// started — content, error and all, unless a load of another resource cleared
    /// them — with nothing in flight and ``LoadingState/wasCancelled`` set;
    /// ``loadWasCancelled()`` is called, ``loadDidFail(_:)`` is not.
    public func cancelLoading() {
        guard loading.cancel() else { return }
        loading.recordCancellation(for: self)
    }

    /// Reloads what the loader shows, as `policy` says: ``resource``, or else the
    /// resource loaded last; on a ``Paginating`` list, every page it holds (or the
    /// first page when none is loaded). Does nothing when there is nothing to load.
    ///
    /// - Parameter policy: When to send a request; ``LoadPolicy/force`` by default.
    public func reload(policy: LoadPolicy = .force) async {
        await Self.kind.reload(self, policy)?.finish()
    }

    /// Clears the loader — for a log-out or an account switch: cancels the load in
    /// flight without applying or reporting it, empties the state, forgets the last
    /// resource and, on a ``Paginating`` list, the pages. Observers of ``states`` stay
    /// subscribed and receive the empty state; ``contentWasCleared()`` is called when
    /// content was shown.
    public func resetLoading() {
        let core = loading
        let hadContent = loading.current.hasContent
        _ = core.cancel()
        core.dropDeferredPages()
        core.forgetResource()
        Self.kind.forget(self)
        core.update(for: self) { $0.reset() }
        if hadContent {
            contentWasCleared()
        }
    }

    // MARK: - Appearance

    /// Call when the content's view appears: reloads with ``LoadPolicy/ifNeeded``,
    /// without waiting — ``resource`` or the last resource; on a ``Paginating`` list,
    /// the first page, or the pages held once they are stale — starts the
    /// revalidations of ``revalidationInterval`` again, and follows again the live
    /// resource the screen follows (``follow(_:)``). On a screen with nothing loaded
    /// and no ``resource``, it loads nothing.
    ///
    /// - Returns: A handle that cancels the load, or `nil` when there is nothing to
    ///   load.
    @discardableResult
    public func loadingDidAppear() -> LoadTask? {
        loading.resumePolling()
        loading.resumeFollowing()
        guard let start = Self.kind.reload(self, .ifNeeded) else { return nil }
        // Fresh content skips the load: the revalidations start again from now.
        loading.schedulePoll(for: self)
        return handOut(start, completion: nil)
    }

    /// Call when the content's view disappears: stops the revalidations of
    /// ``revalidationInterval`` and the following of a live resource until
    /// ``loadingDidAppear()``, cancels the load in
    /// flight when ``cancelsLoadingOnDisappear`` is `true`, and keeps a paginated
    /// list's window of pages in the store, for the next screen that opens it.
    public func loadingDidDisappear() {
        loading.pausePolling()
        loading.pauseFollowing()
        _ = Self.kind.keepSnapshot(self)
        if cancelsLoadingOnDisappear {
            cancelLoading()
        }
    }
}

// MARK: - Starting

extension Loading {
    /// The task of `start` for a caller that does not wait, calling `completion` with
    /// the state once it has ended, unless the loader was released.
    func handOut(
        _ start: LoadStart,
        completion: (@MainActor (LoadingState<ResourceType>) -> Void)?
    ) -> LoadTask {
        let task = start.task
        if let completion {
            Task { @MainActor [weak self] in
                await task.finish()
                guard let self else { return }
                completion(self.loading.current)
            }
        }
        return task
    }
}
