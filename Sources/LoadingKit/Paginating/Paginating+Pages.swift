import LoadingKitNetworking

// MARK: - API

extension Paginating {
    /// Loads the list as `policy` says. Returns when the load has ended: applied,
    /// failed, superseded or cancelled — a superseded or cancelled load returns at
    /// once, even when another screen still shares its request.
    ///
    /// With no page loaded (or another list shown) it loads the first page, which
    /// replaces the content. With pages loaded, ``LoadPolicy/ifNeeded`` keeps them
    /// while they are fresh; otherwise every page held is reloaded, following fresh
    /// cursors from the head page, and the pages replace the content in one change —
    /// nothing shown disappears unless the server dropped it. To start again from one
    /// page, call ``Loading/resetLoading()`` first.
    ///
    /// - Parameter policy: When to load; ``LoadPolicy/ifNeeded`` by default.
    public func loadFirstPage(policy: LoadPolicy = .ifNeeded) async {
        await beginList(policy: policy).finish()
    }

    /// Loads the next page and appends it. Does nothing when there is no next page or
    /// while a next page is in flight (``LoadingState/activity`` says so). Asked for
    /// while the list shows no pages and loads none, it is refused with a `pageRefused`
    /// event. Asked for while the list loads or refreshes — its first page, a forced
    /// ``Loading/reload(policy:)`` — it is never dropped: it waits for that load to end
    /// (``PaginationState/isNextPageDeferred``, a `deferred` event) and then loads the
    /// page after the pages that load applied. A background reload in flight is
    /// superseded by it. After a failed page it asks for the same page again.
    public func loadNextPage() async {
        await beginPage(.next).finish()
    }

    /// Loads the page before the content and inserts it at the head — a page the
    /// window dropped, or the one the head page's response names (a `prev` link, a
    /// previous page number, offset or cursor). The same rules as ``loadNextPage()``
    /// hold.
    public func loadPreviousPage() async {
        await beginPage(.previous).finish()
    }

    /// Starts loading the list without waiting, as ``loadFirstPage(policy:)`` does.
    ///
    /// - Parameters:
    ///   - policy: When to load; ``LoadPolicy/ifNeeded`` by default.
    ///   - completion: Called on the main actor with the state once the load has
    ///     ended, unless the loader was released.
    /// - Returns: A handle that cancels the load.
    @discardableResult
    public func startLoadingFirstPage(
        policy: LoadPolicy = .ifNeeded,
        completion: (@MainActor (LoadingState<ResourceType>) -> Void)? = nil
    ) -> LoadTask {
        handOut(beginList(policy: policy), completion: completion)
    }

    /// Starts loading the next page without waiting, under the rules of
    /// ``loadNextPage()``.
    ///
    /// - Parameter completion: Called on the main actor with the state once the page
    ///   has ended (or at once when none started), unless the loader was released.
    /// - Returns: A handle that cancels the page.
    @discardableResult
    public func startLoadingNextPage(
        completion: (@MainActor (LoadingState<ResourceType>) -> Void)? = nil
    ) -> LoadTask {
        handOut(beginPage(.next), completion: completion)
    }

    /// Starts loading the previous page without waiting, under the rules of
    /// ``loadPreviousPage()``.
    ///
    /// - Parameter completion: Called on the main actor with the state once the page
    ///   has ended (or at once when none started), unless the loader was released.
    /// - Returns: A handle that cancels the page.
    @discardableResult
    public func startLoadingPreviousPage(
        completion: (@MainActor (LoadingState<ResourceType>) -> Void)? = nil
    ) -> LoadTask {
        handOut(beginPage(.previous), completion: completion)
    }

    /// The infinite-scroll trigger: starts the next page when `currentIndex` is within
    /// ``prefetchDistance`` of the end of the list, unless the last next page failed
    /// (retry with ``loadNextPage()``).
    ///
    /// - Parameter currentIndex: The index of an item about to be shown.
    /// - Returns: The next page's task, when one started or waits for the list's load
    ///   to end.
    @discardableResult
    public func loadNextPageIfNeeded(currentIndex: Int) -> LoadTask? {
        let count = loading.current.content?.count ?? 0
        guard currentPagination.pageError == nil, currentIndex >= count - 1 - prefetchDistance
        else {
            return nil
        }
        return startedTask(beginPage(.next))
    }

    /// The trigger toward the head: starts the previous page when `currentIndex` is
    /// within ``prefetchDistance`` of the start of the list, unless the last previous
    /// page failed (retry with ``loadPreviousPage()``).
    ///
    /// - Parameter currentIndex: The index of an item about to be shown.
    /// - Returns: The previous page's task, when one started or waits for the list's
    ///   load to end.
    @discardableResult
    public func loadPreviousPageIfNeeded(currentIndex: Int) -> LoadTask? {
        guard currentPagination.previousPageError == nil, currentIndex <= prefetchDistance else {
            return nil
        }
        return startedTask(beginPage(.previous))
    }

    private func startedTask(_ start: LoadStart) -> LoadTask? {
        switch start {
        case .started, .deferred: start.task
        case .skipped, .joined: nil
        }
    }
}
