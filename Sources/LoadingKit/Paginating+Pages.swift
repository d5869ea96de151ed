import LoadingKitNetworking

// MARK: - API

extension Paginating {
    /// Loads the first page as `policy` says: it replaces the content and restarts
    /// pagination, superseding a next page in flight. Returns when the load has ended.
    ///
    /// - Parameter policy: When to load; ``LoadPolicy/ifNeeded`` by default, so a list
    ///   already loaded is kept. ``LoadPolicy/force`` reloads from the first page.
    public func loadFirstPage(policy: LoadPolicy = .ifNeeded) async {
        await beginFirstPage(policy: policy).finish()
    }

    /// Loads the next page and appends it. Does nothing when there is no next page,
    /// before the first page is loaded, or while anything else is in flight — a next
    /// page included. After a failed page it asks for the same page again.
    public func loadNextPage() async {
        await beginNextPage().finish()
    }

    /// Starts loading the first page without waiting, for callers that are not async.
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
        handOut(beginFirstPage(policy: policy), completion: completion)
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
        handOut(beginNextPage(), completion: completion)
    }

    /// The infinite-scroll trigger: starts the next page when `currentIndex` is within
    /// ``prefetchDistance`` of the end of the list, unless the last page failed (retry
    /// with ``loadNextPage()``).
    ///
    /// - Parameter currentIndex: The index of an item about to be shown.
    /// - Returns: The next page's task, when one started.
    @discardableResult
    public func loadNextPageIfNeeded(currentIndex: Int) -> LoadTask? {
        let count = loadingState.content?.count ?? 0
        guard pagination.pageError == nil, currentIndex >= count - 1 - prefetchDistance else {
            return nil
        }
        let start = beginNextPage()
        guard case .started = start else { return nil }
        return start.task
    }

    /// Resets pagination after the content was replaced by other means than a page:
    /// the next page asks for the first page again, whose items already shown are
    /// dropped as duplicates.
    func restartPagination() {
        pagination.pagesLoaded = max(1, pagination.pagesLoaded)
        pagination.nextCursor = nil
        pagination.hasMorePages = true
        pagination.pageError = nil
    }
}

// MARK: - Loading pages

extension Paginating {
    private func beginFirstPage(policy: LoadPolicy) -> LoadStart {
        let resource = self.resource(forPage: nil)
        loadingRuntime.lastResource = resource.map(identifiedBy: Self.listKey) {
            ResourceType($0.items)
        }
        let (start, switched) = beginLoad(
            resource,
            as: { $0.mapped(to: ResourceType.self, identifiedBy: Self.listKey) },
            policy: policy,
            apply: { loader, fetched in
                try loader.apply(fetched) { (page) throws(LoadingError) in
                    try loader.applyFirstPage(page)
                }
            }
        )
        if switched {
            pagination = PaginationState()
        }
        return start
    }

    private func beginNextPage() -> LoadStart {
        guard pagination.hasFirstPage, pagination.hasMorePages, loadingState.activity == .idle
        else { return .skipped }
        let resource = self.resource(forPage: pagination.nextCursor)
        let webservice = self.webservice
        let flight = perform(.loadingNextPage) { lease in
            try await webservice.fetch(resource, lease: lease).value
        } apply: { loader, page in
            try loader.applyNextPage(page)
        } recordFailure: { loader, error in
            loader.pagination.pageError = error
        }
        return .started(flight)
    }

    /// Names the mapping from a first page to the list, so that reloading the list
    /// is a load of the same resource as its first page.
    private static var listKey: String { "items" }

    private func applyFirstPage(
        _ page: Page<ResourceType.Element, Cursor>
    ) throws(LoadingError) {
        try applyLoaded(ResourceType(page.items)) {
            self.record(page)
            self.pagination.pagesLoaded = 1
        }
        didApply(.replaced)
    }

    private func applyNextPage(_ page: Page<ResourceType.Element, Cursor>) throws(LoadingError) {
        let fresh = itemsToAppend(from: page.items)
        let batch = ResourceType(fresh)
        do {
            try validate(batch)
        } catch {
            loadingRuntime.identities = nil
            throw .rejected(String(describing: error))
        }
        let start = loadingState.content?.count ?? 0
        if !fresh.isEmpty {
            configure(value: appended(batch))
        }
        record(page)
        pagination.pagesLoaded += 1
        let empty = isEmpty(loadingState.content ?? ResourceType())
        markLoaded { $0.isEmpty = empty }
        didApply(fresh.isEmpty ? .none : .appended(start..<(start + fresh.count)))
    }

    /// Appends `batch` to the content in place and returns the whole list.
    private func appended(_ batch: ResourceType) -> ResourceType {
        loadingState.content?.append(contentsOf: batch)
        return loadingState.content ?? batch
    }

    private func record(_ page: Page<ResourceType.Element, Cursor>) {
        pagination.nextCursor = page.next
        pagination.hasMorePages = page.next != nil
        pagination.pageError = nil
    }
}
