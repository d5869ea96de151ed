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

/// What the pages of a refresh came to: merged content, or a replacement fetched
/// because they could not be merged.
private enum RefreshOutcome<Loader: Loading>: Sendable {
    /// The merged content and its change, the pages merged, and the number of local
    /// edits the content had had when they were merged.
    case merged(Loader.ResourceType, ContentChange, pages: [Loader.ResourceType], edits: UInt64)
    case replaced(Replacement<Loader>)
}

/// What a refresh does after a page: finish, fetch the following page, or fetch what
/// replaces the content.
private enum RefreshStep<Loader: Loading>: Sendable {
    case done(RefreshOutcome<Loader>)
    case follow(Resource<Loader.ResourceType>)
    case replace(ReplacementFetch<Loader>)
}

extension Refreshable {
    private func beginRefresh() -> LoadStart {
        let state = loading.current
        if let inFlight = loading.currentOperation,
            state.activity == .refreshing || (state.content == nil && state.activity == .loading)
        {
            return .joined(inFlight)
        }
        // Another resource's content, kept while this one loads, is no base to merge into.
        guard let content = state.content, !state.isPreviousContent else {
            return Self.kind.firstLoad?(self) ?? beginFirstLoad()
        }
        if let awayFromHead = Self.kind.refreshAwayFromHead(self) {
            return awayFromHead
        }
        let anchor = refreshAnchor(of: content)
        let first = refreshResource(newerThan: anchor)
        let firstPage = Self.kind.refreshHead(self, first)
        let webservice = self.webservice
        let limit = max(1, refreshPageLimit)
        let operation = loading.run(.refreshing, for: self) { [weak self] in
            var pages: [ResourceType] = []
            var head: ResponseSummary?
            // What replaces the content when the first answer does both.
            var replacement: Replacement<Self>?
            var resource = first
            while true {
                if pages.isEmpty, let firstPage {
                    let fetched = try await firstPage()
                    (head, replacement) = (fetched.response, fetched.replacement)
                    pages.append(fetched.items)
                } else {
                    let fetched = try await webservice.fetch(resource, notifies: false)
                    pages.append(fetched.value)
                    head = head ?? fetched.response
                }
                // The screen is held only on the main actor: held across the hop, a
                // superseded refresh would keep a released screen alive until it ran.
                let fetchedPages = pages
                let step = await MainActor.run { [weak self] in
                    self?.refreshStep(
                        fetchedPages,
                        content: content,
                        anchor: anchor,
                        canFollow: fetchedPages.count < limit
                    )
                }
                switch step {
                case .done(let outcome): return (outcome, head)
                case .follow(let next): resource = next
                case .replace(let fetch):
                    guard let replacement else { return (.replaced(try await fetch()), nil) }
                    return (.replaced(replacement), nil)
                case nil: throw CancellationError()
                }
            }
        } apply: { loader, refreshed in
            try loader.applyRefresh(refreshed.0)
            // What the newest page's response says of the whole list holds now.
            if let head = refreshed.1 {
                Self.kind.answered(loader, head)
            }
        }
        return .started(operation)
    }

    private func beginFirstLoad() -> LoadStart {
        loading.load(
            refreshResource(newerThan: nil),
            policy: .force,
            reporting: .replaced,
            for: self
        )
    }

    /// What follows the pages fetched so far, merged into the content as it is now —
    /// with any local edit made since the refresh began — or else into `content`, the
    /// content it began with.
    private func refreshStep(
        _ pages: [ResourceType],
        content: ResourceType,
        anchor: RefreshAnchor?,
        canFollow: Bool
    ) -> RefreshStep<Self> {
        let content = loading.current.content ?? content
        let edits = loading.editCount
        let replacement = Self.kind.replacement?(self)
        switch mergeRefresh(pages, into: content) {
        case .merged(let merged, let change):
            if change == .replaced, let replacement {
                return .replace(replacement)
            }
            return .done(.merged(merged, change, pages: pages, edits: edits))
        case .gap(let gapReplacement):
            if canFollow, let last = pages.last,
                let next = refreshResource(following: last, newerThan: anchor)
            {
                return .follow(next)
            }
            if let replacement {
                return .replace(replacement)
            }
            return .done(.merged(gapReplacement, .replaced, pages: pages, edits: edits))
        }
    }

    private func applyRefresh(_ outcome: RefreshOutcome<Self>) throws(LoadingError) {
        switch outcome {
        case .replaced(let replacement):
            try replacement.apply(self)
        case .merged(let content, let change, let pages, let edits):
            guard edits != loading.editCount, change != .replaced,
                let shown = loading.current.content
            else {
                try applyMerged(content, change)
                return
            }
            // A local edit came after the merge: merge the pages into the edited
            // content instead — or keep it, when they now merge only by replacing it.
            switch mergeRefresh(pages, into: shown) {
            case .merged(let merged, let change) where change != .replaced:
                try applyMerged(merged, change)
            case .merged, .gap:
                try applyMerged(shown, .none)
            }
        }
    }

    private func applyMerged(_ content: ResourceType, _ change: ContentChange) throws(LoadingError)
    {
        guard change != .none else {
            loading.markLoaded(for: self)
            didApply(.none)
            return
        }
        try loading.applyLoaded(content, merged: change != .replaced, for: self)
        didApply(change)
    }
}
