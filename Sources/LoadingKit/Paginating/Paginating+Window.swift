import Foundation
import LoadingKitNetworking

/// Which end of a list a page goes to.
enum PageDirection: Sendable {
    case next
    case previous
}

extension LoaderKind where Loader: Paginating {
    /// A window of pages: a load of the list's own resource loads the first page, any
    /// other resource is shown as a list without pages; a reload reloads the pages
    /// held; a refresh with nothing shown loads the first page, one whose pages do not
    /// start at the head of the list reloads the pages held, in place, and one that
    /// cannot merge shows the first page.
    static var pages: LoaderKind {
        LoaderKind(
            load: { loader, resource, policy in loader.beginLoad(of: resource, policy: policy) },
            reload: { loader, policy in
                guard let resource = loader.resource ?? loader.loading.lastResource else {
                    return loader.beginList(policy: policy)
                }
                return loader.beginLoad(of: resource, policy: policy)
            },
            forget: { loader in
                loader.changePagination { $0 = PaginationState() }
                loader.forgetSnapshot()
            },
            firstLoad: { loader in loader.beginList(policy: .force) },
            replacement: { loader in loader.firstPageReplacement() },
            refreshHead: { loader, first in loader.firstPageRefresh(sentAs: first) },
            refreshAwayFromHead: { loader in loader.beginRefreshAwayFromHead() },
            edited: { loader, applied in loader.follow(applied) },
            answered: { loader, response in loader.changePagination { $0.note(response) } },
            keepSnapshot: { loader in loader.keepSnapshot() }
        )
    }
}

// MARK: - Beginning

extension Paginating {
    /// Names the mapping from a first page to the list, so that reloading the list
    /// is a load of the same resource as its first page.
    private static var listKey: String { "items" }

    /// Loads `resource`: the list itself when it is the list's first page mapped to
    /// its items, else a list shown without pages.
    fileprivate func beginLoad(of resource: Resource<ResourceType>, policy: LoadPolicy) -> LoadStart
    {
        let first = self.resource(forPage: nil)
        if resource.identity == listIdentity(of: first) {
            return beginList(policy: policy, first: first)
        }
        // Pages need the list's identity as the state's, so a load of another
        // resource leaves none; those of the list are forgotten as it starts.
        if loading.stateIdentity != resource.identity {
            changePagination { $0 = PaginationState() }
        }
        return loading.load(resource, policy: policy, for: self)
    }

    /// Loads the first page, or reloads the pages held, as `policy` says.
    func beginList(policy: LoadPolicy) -> LoadStart {
        beginList(policy: policy, first: resource(forPage: nil))
    }

    private func beginList(
        policy: LoadPolicy,
        first: Resource<Page<ResourceType.Element, Cursor>>
    ) -> LoadStart {
        let identity = listIdentity(of: first)
        if !policy.ignoresCache,
            !currentPagination.hasFirstPage || loading.stateIdentity != identity
        {
            showSnapshot(of: identity, first: first)
        }
        guard currentPagination.hasFirstPage, loading.stateIdentity == identity else {
            return beginFirstPage(first, policy: policy)
        }
        if let existing = loading.existingLoad(for: policy, of: identity, for: self) {
            return existing
        }
        return beginReloadOfPages(identity: identity, policy: policy)
    }

    /// The identity of the list whose first page is `first`.
    func listIdentity(
        of first: Resource<Page<ResourceType.Element, Cursor>>
    ) -> ResourceIdentity {
        first.identity.listed(as: ResourceType.self, by: Self.listKey)
    }

    /// The list as one resource: its first page mapped to its items, which a reload
    /// loads again.
    func listResource(
        of first: Resource<Page<ResourceType.Element, Cursor>>
    ) -> Resource<ResourceType> {
        var list = first.listed(by: Self.listKey) { ResourceType($0.items) }
        if let elements = first.storedElements {
            list.storedElements = { (items: ResourceType) in
                elements(Page<ResourceType.Element, Cursor>(items: Array(items), next: nil))
            }
        }
        return list
    }

    private func beginFirstPage(
        _ resource: Resource<Page<ResourceType.Element, Cursor>>,
        policy: LoadPolicy
    ) -> LoadStart {
        loading.lastResource = listResource(of: resource)
        let identity = listIdentity(of: resource)
        let anotherList = loading.stateIdentity != identity
        let start = loading.begin(
            resource,
            as: { _ in identity },
            policy: policy,
            for: self,
            apply: { loader, fetched in
                try loader.loading.apply(fetched, for: loader) { (page) throws(LoadingError) in
                    try loader.applyFirstPage(page)
                }
            }
        )
        if anotherList {
            // Pages of another list.
            changePagination { $0 = PaginationState() }
        }
        return start
    }

    /// A refresh of a window that does not start at the head of the list: the pages
    /// held are reloaded in place, showing refreshing — the newer items show when the
    /// list is scrolled back up —; `nil` at the head, or with no pages of the list.
    fileprivate func beginRefreshAwayFromHead() -> LoadStart? {
        let identity = listIdentity(of: resource(forPage: nil))
        guard !currentPagination.isAtHead, currentPagination.hasFirstPage,
            loading.stateIdentity == identity
        else { return nil }
        return beginReloadOfPages(identity: identity, policy: .force, showing: .refreshing)
    }

    /// Reloads every page held, from the head page's cursor, following the cursors
    /// each fresh page gives; the state shows `activity`, else what `policy` shows.
    private func beginReloadOfPages(
        identity: ResourceIdentity,
        policy: LoadPolicy,
        showing activity: LoadingActivity? = nil
    ) -> LoadStart {
        let cursor = currentPagination.headCursor
        let count = currentPagination.pagesLoaded
        // Items published at the head push the last item shown past the pages held:
        // up to as many pages again (within `maxPages`) are loaded until it is covered.
        let covering = min(count * 2, max(count, maxPages ?? .max))
        let shown = loading.current.content
        let lastShown = shown.flatMap { $0.dropFirst(max(0, $0.count - 1)).first }.flatMap {
            last in Self.identifier(of: last).map { _ in last }
        }
        let head = resource(forPage: cursor)
        let webservice = self.webservice
        let core = loading
        let shows = activity ?? core.activity(for: policy)
        let operation = core.run(shows, identity: identity, for: self) {
            [weak self] in
            var pages: [Fetched<Page<ResourceType.Element, Cursor>>] = []
            var resource = policy.ignoresCache ? head.ignoringCache() : head
            var covered = lastShown == nil
            while true {
                let fetched = try await webservice.fetch(resource, notifies: false)
                // An empty page looked for beyond those held is the end of the list.
                if pages.count >= count, fetched.value.items.isEmpty { return pages }
                pages.append(fetched)
                if !covered, let lastShown {
                    let id = Self.identifier(of: lastShown)
                    covered = fetched.value.items.contains { Self.identifier(of: $0) == id }
                }
                let wanted = pages.count < count || (!covered && pages.count < covering)
                guard wanted, let next = fetched.value.next else { return pages }
                // The screen is held only on the main actor, never across the hop.
                guard
                    let following = await MainActor.run(body: { [weak self] in
                        self?.resource(forPage: next)
                    })
                else {
                    throw CancellationError()
                }
                resource = policy.ignoresCache ? following.ignoringCache() : following
            }
        } apply: { loader, pages in
            try loader.applyPages(pages, from: cursor)
        }
        return .started(operation)
    }

    /// Starts the page before or after the content; holds it while a load other than
    /// a background reload or a page the same way is in flight; refuses it, saying so,
    /// while the list shows no pages of its own.
    func beginPage(_ direction: PageDirection) -> LoadStart {
        let core = loading
        let activity = core.current.activity
        let pageInFlight: LoadingActivity =
            direction == .next ? .loadingNextPage : .loadingPreviousPage
        guard activity != pageInFlight else { return .skipped }
        let pagination = currentPagination
        // Before the first page shows, a page waits for the list's load in flight, and
        // is refused without one.
        guard core.current.content != nil || core.currentOperation != nil,
            core.stateIdentity == listIdentity(of: resource(forPage: nil))
        else {
            core.report(.pageRefused, for: self)
            return .skipped
        }
        if core.currentOperation != nil,
            core.current.content == nil || (activity != .idle && activity != .reloading)
        {
            // The list is loading its first page, refreshing or getting the other end:
            // the page starts when that load ends, from whatever it applied.
            core.report(.deferred, for: self)
            if let waiting = core.deferredPage(toward: direction) {
                return .deferred(waiting)
            }
            setDeferred(direction, true)
            let page = DeferredPage(direction: direction) { [weak self] dropped in
                guard let self else { return .skipped }
                self.setDeferred(direction, false)
                return dropped ? .skipped : self.beginPage(direction)
            }
            core.hold(page)
            return .deferred(page)
        }
        // No page that way: the state says so (`hasMorePages`, `hasPreviousPages`).
        guard let cursor = direction == .next ? pagination.nextPage : pagination.previousPage
        else { return .skipped }
        let resource = self.resource(forPage: cursor)
        let webservice = self.webservice
        let loading: LoadingActivity =
            direction == .next ? .loadingNextPage : .loadingPreviousPage
        let shown = core.current.content
        let gap = PageGap(
            total: pagination.total(atEnd: direction),
            neighbour: direction == .next
                ? shown.flatMap { $0.dropFirst(max(0, $0.count - 1)).first } : shown?.first,
            identifier: Self.identifier
        )
        let operation = core.run(loading, for: self) { [weak self] in
            let page = try await webservice.fetch(resource, notifies: false).value
            return try await gap.closing(after: page, toward: direction) { cursor in
                guard
                    let between = await MainActor.run(body: { [weak self] in
                        self?.resource(forPage: cursor)
                    })
                else {
                    throw CancellationError()
                }
                return try await webservice.fetch(between, notifies: false).value
            }
        } apply: { loader, page in
            try loader.applyPage(page, from: cursor, direction)
        } recordFailure: { loader, error in
            switch direction {
            case .next: loader.changePagination { $0.pageError = error }
            case .previous: loader.changePagination { $0.previousPageError = error }
            }
        }
        return .started(operation)
    }

    /// Records whether a page toward `direction` waits for the load in flight.
    private func setDeferred(_ direction: PageDirection, _ deferred: Bool) {
        changePagination { pagination in
            switch direction {
            case .next: pagination.isNextPageDeferred = deferred
            case .previous: pagination.isPreviousPageDeferred = deferred
            }
        }
    }

    /// What replaces the content when a refresh cannot merge: the first page, when the
    /// content is pages.
    fileprivate func firstPageReplacement() -> ReplacementFetch<Self>? {
        guard currentPagination.hasFirstPage else { return nil }
        let resource = self.resource(forPage: nil)
        let webservice = self.webservice
        return {
            Self.replacement(by: try await webservice.fetch(resource, notifies: false))
        }
    }

    /// A refresh's first fetch when `refresh` sends the first page's very request: the
    /// first page, fetched once, gives the refresh its items and, should they not merge,
    /// replaces the list — one request where two were sent.
    fileprivate func firstPageRefresh(
        sentAs refresh: Resource<ResourceType>
    ) -> RefreshHeadFetch<Self>? {
        let first = resource(forPage: nil)
        guard currentPagination.hasFirstPage, refresh.sendsSameRequest(as: first) else {
            return nil
        }
        let webservice = self.webservice
        return {
            let fetched = try await webservice.fetch(first, notifies: false)
            return (
                ResourceType(fetched.value.items), fetched.response, Self.replacement(by: fetched)
            )
        }
    }

    /// How the first page `fetched` replaces the list.
    nonisolated private static func replacement(
        by fetched: Fetched<Page<ResourceType.Element, Cursor>>
    ) -> Replacement<Self> {
        Replacement { loader throws(LoadingError) in
            try loader.applyFirstPage(fetched.value)
            loader.loading.record(
                .answered(validators: fetched.validators, directives: fetched.cacheDirectives)
            )
        }
    }
}

// MARK: - Applying

extension Paginating {
    private func applyFirstPage(_ page: Page<ResourceType.Element, Cursor>) throws(LoadingError) {
        try loading.applyLoaded(ResourceType(page.items), for: self) {
            changePagination { $0.start(with: [page], from: nil, counts: [page.items.count]) }
        }
        didApply(.replaced)
    }

    /// Replaces the content with the pages of a reload, each item once; pages the
    /// server answered unchanged keep the content as it is.
    private func applyPages(
        _ fetched: [Fetched<Page<ResourceType.Element, Cursor>>],
        from cursor: Cursor?
    ) throws(LoadingError) {
        if loading.current.content != nil, fetched.count == currentPagination.pagesLoaded,
            fetched.allSatisfy({ $0.isNotModified })
        {
            loading.record(.freshness(fetched.first?.cacheDirectives))
            // The list answered: a page that failed before is no standing error.
            changePagination { $0.clearPageErrors() }
            loading.markLoaded(for: self)
            return
        }
        // The new list is built in the state, so that `itemsToAppend(from:)` sees as
        // shown the pages before each page; the old list is put back before anything
        // is applied, and stays if the new one is refused.
        let core = loading
        let shown = core.current.content
        core.stage { $0.stage { $0 = ResourceType() } }
        core.identities = .none
        var counts: [Int] = []
        for page in fetched {
            let fresh = itemsToAppend(from: page.value.items)
            counts.append(fresh.count)
            core.stage { $0.stage { $0?.append(contentsOf: fresh) } }
        }
        let items = core.current.content ?? ResourceType()
        core.stage { $0.stage { $0 = shown } }
        core.identities = .unknown
        try loading.applyLoaded(items, for: self) {
            changePagination {
                $0.start(with: fetched.map { $0.value }, from: cursor, counts: counts)
            }
        }
        core.record(.freshness(fetched.first?.cacheDirectives))
        didApply(.replaced)
    }

    /// Adds a page at one end of the content, drops pages at the other end beyond
    /// ``maxPages``, and reports both.
    private func applyPage(
        _ page: Page<ResourceType.Element, Cursor>,
        from cursor: Cursor?,
        _ direction: PageDirection
    ) throws(LoadingError) {
        let fresh = itemsToAppend(from: page.items)
        // Only an item shown already can have moved onto the page: with every item new,
        // none did, and no identifier is read. Items the user removed are in neither,
        // whatever the server still lists.
        let removedByUser = loading.removedItems
        let moved =
            fresh.count == page.items.count
            ? 0
            : PageGap<ResourceType.Element>.moved(
                onto: removedByUser.isEmpty
                    ? page.items
                    : page.items.filter {
                        Self.identifier(of: $0).map { !removedByUser.contains($0) } ?? true
                    },
                toward: direction,
                from: loading.current.content ?? ResourceType(),
                identifier: Self.identifier
            )
        let batch = ResourceType(fresh)
        do {
            try validate(batch)
        } catch {
            loading.identities = .unknown
            throw .rejected(String(describing: error))
        }
        let before = loading.current.content?.count ?? 0
        let removed = changePagination {
            $0.add(
                page,
                from: cursor,
                count: fresh.count,
                moved: moved,
                toward: direction,
                contentCount: before,
                limit: maxPages
            )
        }
        let total = before + fresh.count
        let dropped = min(removed, total)
        var changes: [ContentChange] = []
        let core = loading
        switch direction {
        case .next:
            core.stage { $0.stage { $0?.append(contentsOf: batch) } }
            if !fresh.isEmpty {
                changes.append(.appended(before..<total))
            }
            if dropped > 0 {
                core.stage { $0.stage { $0?.removeFirst(dropped) } }
                changes.append(.removed(0..<dropped))
            }
        case .previous:
            core.stage { $0.stage { $0?.prepend(contentsOf: batch) } }
            if !fresh.isEmpty {
                changes.append(.inserted(IndexSet(0..<fresh.count)))
            }
            if dropped > 0 {
                core.stage { $0.stage { $0?.removeLast(dropped, of: total) } }
                changes.append(.removed((total - dropped)..<total))
            }
        }
        if dropped > 0 {
            core.identities = .unknown
        }
        if !changes.isEmpty {
            configure(value: core.current.content ?? batch)
        }
        let empty = isEmpty(core.current.content ?? ResourceType())
        let now = loadingClock.continuousNow
        loading.update(for: self) { $0.applyStaged(isEmpty: empty, at: now) }
        for change in changes.isEmpty ? [.none] : changes {
            didApply(change)
        }
    }
}

extension RangeReplaceableCollection {
    /// Inserts `items` before the first element.
    fileprivate mutating func prepend(contentsOf items: Self) {
        insert(contentsOf: items, at: startIndex)
    }

    /// Removes the last `count` of this collection's `total` elements.
    fileprivate mutating func removeLast(_ count: Int, of total: Int) {
        removeSubrange(index(startIndex, offsetBy: total - count)..<endIndex)
    }
}
