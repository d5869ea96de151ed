import Foundation

/// Where a ``Paginating`` list is: which pages it holds, what asks for the pages
/// before and after them, what the API says of the whole list, and why the last page
/// failed.
///
/// ```swift
/// if screen.pagination.pageError != nil { showRetryFooter() }
/// else if screen.pagination.hasMorePages { showSpinnerFooter() }
/// if let total = screen.pagination.totalCount { countLabel.text = "\(total) issues" }
/// ```
///
/// The content is always the items of the pages held, in order, each item once: a
/// window of the server's list, which ``Paginating/maxPages`` can bound. The list's
/// ``LoadingCore`` holds it; ``Paginating/pagination`` reads it.
public struct PaginationState<Cursor: Sendable>: Sendable {
    /// One page the content holds: what asked for it, how many items it added, and
    /// what its response said of its neighbours.
    struct PageRecord: Sendable {
        /// What asked for the page; `nil` for the first page.
        let cursor: Cursor?
        /// How many items of the content are this page's.
        var count: Int
        let previous: Cursor?
        let next: Cursor?
        /// The list's total count when the page was fetched, if its response said.
        var total: Int? = nil
    }

    /// The pages of the content, head first.
    private(set) var pages: [PageRecord]
    /// How many items the pages after the head page hold, kept so that adding a page
    /// costs the same however many pages are held.
    private(set) var itemsAfterHead: Int
    /// What asked for the pages dropped at the head, the nearest last.
    private(set) var droppedHead: [Cursor?]
    /// What asked for the pages dropped at the tail, the nearest last.
    private(set) var droppedTail: [Cursor?]

    /// Why the last next page failed; cleared when a page, a refresh or a reload of the
    /// list succeeds — the server answers again. The items loaded stay shown, and
    /// ``Paginating/loadNextPage()`` asks for the same page again.
    public internal(set) var pageError: LoadingError?
    /// Why the last previous page failed; cleared when a page, a refresh or a reload
    /// of the list succeeds. The items loaded stay shown, and
    /// ``Paginating/loadPreviousPage()`` asks for the same page again.
    public internal(set) var previousPageError: LoadingError?
    /// How many items the whole list holds, as the last page loaded said.
    public internal(set) var totalCount: Int?
    /// What asks for the first page, as the last page loaded said.
    public internal(set) var firstCursor: Cursor?
    /// What asks for the last page, as the last page loaded said.
    public internal(set) var lastCursor: Cursor?
    /// Whether a next page, asked for while the list loads, refreshes or gets its
    /// previous page, waits for that load to end; it then loads from the pages the
    /// load applied. Cancelling the load or resetting the list drops it.
    public internal(set) var isNextPageDeferred: Bool
    /// Whether a previous page, asked for while the list loads, refreshes or gets its
    /// next page, waits for that load to end, as ``isNextPageDeferred`` does.
    public internal(set) var isPreviousPageDeferred: Bool

    /// The state before the first page. Not public: a list's window lives in its
    /// ``LoadingCore``, read through ``Paginating/pagination``, and a conformer that
    /// declared one of its own would show an empty window beside its rows.
    init() {
        pages = []
        itemsAfterHead = 0
        droppedHead = []
        droppedTail = []
        pageError = nil
        previousPageError = nil
        totalCount = nil
        firstCursor = nil
        lastCursor = nil
        isNextPageDeferred = false
        isPreviousPageDeferred = false
    }

    /// A window read back: `pages`, head first, and the cursors of the pages dropped
    /// at either end, nearest last.
    init(
        pages: [PageRecord],
        droppedHead: [Cursor?],
        droppedTail: [Cursor?],
        totalCount: Int?,
        firstCursor: Cursor?,
        lastCursor: Cursor?
    ) {
        self.init()
        self.pages = pages
        itemsAfterHead = pages.dropFirst().reduce(0) { $0 + $1.count }
        self.droppedHead = droppedHead
        self.droppedTail = droppedTail
        self.totalCount = totalCount
        self.firstCursor = firstCursor
        self.lastCursor = lastCursor
    }

    /// How many pages the content holds.
    public var pagesLoaded: Int { pages.count }

    /// How many items the pages hold, as each page counts them.
    var itemCount: Int { pages.reduce(0) { $0 + $1.count } }

    /// Every cursor the window holds: the pages', their neighbours', the dropped
    /// pages', the first's and the last's.
    var cursors: [Cursor] {
        let ofPages = pages.flatMap { [$0.cursor, $0.previous, $0.next] }
        return (ofPages + droppedHead + droppedTail + [firstCursor, lastCursor]).compactMap { $0 }
    }

    /// Whether the list is loaded as pages.
    public var hasFirstPage: Bool { !pages.isEmpty }

    /// Whether there is a page after the content (the seeds'
    /// `shouldBeginLoadingNextPage`); `false` until the first page is loaded.
    public var hasMorePages: Bool { nextPage != nil }

    /// What asks for the page after the content; `nil` when there is none.
    public var nextCursor: Cursor? { nextPage ?? nil }

    /// Whether there is a page before the content: one the window dropped, or one the
    /// head page's response names.
    public var hasPreviousPages: Bool { previousPage != nil }

    /// What asks for the page before the content; `nil` when there is none.
    public var previousCursor: Cursor? { previousPage ?? nil }

    /// What asks for the page after the content — what the tail page's response
    /// said, else what asked for the page dropped there; `.some(nil)` is the first
    /// page.
    var nextPage: Cursor?? {
        if let next = pages.last?.next { return .some(next) }
        return droppedTail.last
    }

    /// What asks for the page before the content — what the head page's response
    /// said, else what asked for the page dropped there; `.some(nil)` is the first
    /// page.
    var previousPage: Cursor?? {
        if let previous = pages.first?.previous { return .some(previous) }
        return droppedHead.last
    }

    // MARK: - Changing the window

    /// Starts the list over with `pages`, the first asked for by `cursor`, holding
    /// `counts` items each; pages dropped at the head stay reachable.
    mutating func start(
        with fetched: [Page<some Sendable, Cursor>],
        from cursor: Cursor?,
        counts: [Int]
    ) {
        pages = []
        droppedTail = []
        if cursor == nil {
            droppedHead = []
        }
        var asking = cursor
        for (page, count) in zip(fetched, counts) {
            pages.append(
                PageRecord(
                    cursor: asking,
                    count: count,
                    previous: page.previous,
                    next: page.next,
                    total: page.totalCount
                )
            )
            asking = page.next
        }
        itemsAfterHead = pages.dropFirst().reduce(0) { $0 + $1.count }
        if let last = fetched.last {
            record(last)
        }
    }

    /// Adds a page asked for by `cursor` at one end of the content of `contentCount`
    /// items — after it for `.next`, before it for `.previous` — holding its `count`
    /// new items and the `moved` items at that end of the content it repeats, and
    /// drops pages at the other end beyond `limit`; returns how many items to remove
    /// from that other end.
    mutating func add(
        _ page: Page<some Sendable, Cursor>,
        from cursor: Cursor?,
        count: Int,
        moved: Int = 0,
        toward end: PageDirection,
        contentCount: Int,
        limit: Int?
    ) -> Int {
        settleHead(contentCount: contentCount)
        // The items at that end of the content the page repeats become its own.
        var moved = moved
        switch end {
        case .next where !pages.isEmpty:
            moved = min(moved, pages[pages.count - 1].count)
            pages[pages.count - 1].count -= moved
            itemsAfterHead -= pages.count > 1 ? moved : 0
        case .previous where !pages.isEmpty:
            moved = min(moved, pages[0].count)
            pages[0].count -= moved
        default:
            moved = 0
        }
        let added = PageRecord(
            cursor: cursor,
            count: count + moved,
            previous: page.previous,
            next: page.next,
            total: page.totalCount
        )
        switch end {
        case .next:
            _ = droppedTail.popLast()
            itemsAfterHead += pages.isEmpty ? 0 : added.count
            pages.append(added)
        case .previous:
            _ = droppedHead.popLast()
            itemsAfterHead += pages.first?.count ?? 0
            pages.insert(added, at: 0)
        }
        record(page)
        var removed = 0
        while let limit, pages.count > max(1, limit) {
            let dropped: PageRecord
            switch end {
            case .next:
                dropped = pages.removeFirst()
                droppedHead.append(dropped.cursor)
                itemsAfterHead -= pages[0].count
            case .previous:
                dropped = pages.removeLast()
                droppedTail.append(dropped.cursor)
                itemsAfterHead -= dropped.count
            }
            removed += dropped.count
        }
        return removed
    }

    /// Follows a local edit of the content, which held `count` items before `changes`
    /// and `newCount` after: an item replaced in place stays in its page, an item
    /// removed or inserted at an index leaves or joins the page holding that index (an
    /// item added at the end joins the tail page), and a change of the whole content
    /// keeps the pages from the head while they fit.
    mutating func follow(_ changes: [ContentChange], from count: Int, to newCount: Int) {
        guard !pages.isEmpty else { return }
        settleHead(contentCount: count)
        var total = count
        var index = changes.startIndex
        while index < changes.endIndex {
            let change = changes[index]
            index += 1
            if case .removed(let range) = change, range.count == 1, index < changes.endIndex,
                changes[index] == .inserted(IndexSet(integer: range.lowerBound))
            {
                index += 1  // replaced in place
                continue
            }
            switch change {
            case .none:
                break
            case .removed(let range):
                for offset in range.reversed() {
                    resize(pageHolding: offset, by: -1)
                    total -= 1
                }
            case .inserted(let indices):
                for offset in indices {
                    resize(pageHolding: offset, by: 1)
                    total += 1
                }
            case .appended(let range):
                resize(pageHolding: total, by: range.count)
                total += range.count
            case .replaced:
                total = newCount
                fit(newCount)
            }
        }
    }

    /// What asked for each page held, head first.
    var heldCursors: [Cursor?] { pages.map { $0.cursor } }

    /// Changes by `delta` the count of the page holding the item at `offset` — the
    /// tail page for an offset past the content's end.
    private mutating func resize(pageHolding offset: Int, by delta: Int) {
        var start = 0
        var index = pages.count - 1
        for (candidate, page) in pages.enumerated() {
            if offset < start + page.count {
                index = candidate
                break
            }
            start += page.count
        }
        pages[index].count += delta
        if index > 0 {
            itemsAfterHead += delta
        }
    }

    /// Makes the pages hold `count` items: the head page takes any surplus, and pages
    /// from the tail give up items when there are fewer.
    private mutating func fit(_ count: Int) {
        var excess = pages.reduce(0) { $0 + $1.count } - count
        if excess < 0 {
            pages[0].count -= excess
            return
        }
        for index in pages.indices.reversed() where excess > 0 {
            let taken = min(excess, pages[index].count)
            pages[index].count -= taken
            excess -= taken
        }
        itemsAfterHead = pages.dropFirst().reduce(0) { $0 + $1.count }
    }

    /// Whether the head page is the list's first page: none was dropped before it, and
    /// it was asked for as the first page or its response names no page before it.
    var isAtHead: Bool {
        droppedHead.isEmpty && (pages.first.map { $0.cursor == nil || $0.previous == nil } ?? true)
    }

    /// The list's total count when the page at the end toward `direction` was fetched:
    /// a page fetched beyond it with another total shows the list moved since.
    func total(atEnd direction: PageDirection) -> Int? {
        (direction == .previous ? pages.first : pages.last)?.total
    }

    /// The cursor of the head page, where a reload of the pages held starts.
    var headCursor: Cursor? { pages.first?.cursor ?? nil }

    /// The window of content of `count` items as a screen opening the list again
    /// starts from: the pages, cursors and totals, without what failed or waited on
    /// the screen that held it.
    func restorable(holding count: Int) -> PaginationState {
        var window = self
        window.settleHead(contentCount: count)
        window.pageError = nil
        window.previousPageError = nil
        window.isNextPageDeferred = false
        window.isPreviousPageDeferred = false
        return window
    }

    /// Makes the head page own every item of the content the other pages do not —
    /// the items a refresh inserted at the head.
    private mutating func settleHead(contentCount: Int) {
        guard !pages.isEmpty else { return }
        pages[0].count = max(0, contentCount - itemsAfterHead)
    }

    /// Forgets why pages failed: the list answered again.
    mutating func clearPageErrors() {
        pageError = nil
        previousPageError = nil
    }

    /// Keeps what a response of the list that is not a page — a refresh's — says of
    /// the whole list: its `X-Total-Count`, and, when the pages are asked for by URL,
    /// its `first` and `last` links on the origin of those the pages gave. The list
    /// answered: a page that failed before is no standing error.
    mutating func note(_ response: ResponseSummary) {
        clearPageErrors()
        totalCount = response.totalCount ?? totalCount
        let links = response.links
        firstCursor = Self.link(links.first, onOriginOf: firstCursor) ?? firstCursor
        lastCursor = Self.link(links.last, onOriginOf: lastCursor) ?? lastCursor
    }

    /// `link` as a cursor, when cursors are URLs and it has the origin of `current`.
    private static func link(_ link: URL?, onOriginOf current: Cursor?) -> Cursor? {
        guard let link, let current = current as? URL, link.hasSameOrigin(as: current) else {
            return nil
        }
        return link as? Cursor
    }

    /// Keeps what `page` says of the whole list; a page succeeded, so no error stays.
    private mutating func record(_ page: Page<some Sendable, Cursor>) {
        totalCount = page.totalCount ?? totalCount
        firstCursor = page.first ?? firstCursor
        lastCursor = page.last ?? lastCursor
        pageError = nil
        previousPageError = nil
    }
}

/// A page held, on disk in a list's snapshot.
extension PaginationState.PageRecord: Codable where Cursor: Codable {}
