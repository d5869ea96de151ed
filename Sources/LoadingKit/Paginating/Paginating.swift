import LoadingKitNetworking

/// A ``Loading`` list that loads page after page — toward the tail and toward the
/// head — by page number, offset, cursor or `Link` header, with at most one page in
/// flight, no item applied twice and none dropped, and optionally a bounded window of
/// pages.
///
/// ```swift
/// @MainActor final class IssuesScreen: Paginating {
///     let loading = LoadingCore<[Issue]>()
///     func resource(forPage next: URL?) -> Resource<Page<Issue, URL>> {
///         .linked(url: next ?? Issue.firstPageURL)
///     }
///     func didApply(_ change: ContentChange) { table.apply(change) }  // rows read loadingState.content
/// }
///
/// await screen.loadFirstPage()
/// await screen.loadNextPage()                      // no-op without more pages or while one loads
/// screen.loadNextPageIfNeeded(currentIndex: 42)    // the infinite-scroll trigger
/// ```
///
/// The first page replaces the content and each next page is appended, reported to
/// ``Loading/didApply(_:)`` as ``ContentChange/appended(_:)``; a previous page is
/// inserted at the head, reported as ``ContentChange/inserted(_:)``. A page is
/// validated on its own: ``Loading/validate(_:)`` receives its new items.
///
/// Every way of loading means something in pages: ``Loading/loadingDidAppear()`` and
/// ``Loading/reload(policy:)`` load the first page when none is loaded, and otherwise
/// reload every page held, following fresh cursors, so nothing shown disappears; a
/// refresh of a ``Refreshable`` list loads the first page when nothing is shown, and
/// otherwise merges new items at the head. No sequence of calls asks again for a page
/// already shown, and ``pagination`` always describes the content.
///
/// A reload of the pages held sends one request per page, one after the other: bound
/// the pages with ``maxPages`` for a list that grows long. Declare `Paginating` on the
/// class that declares `Loading`, so that every default the kit supplies is the list's.
///
/// The list lives in ``Loading/loadingState``, each page appended in place; change
/// it only through the kit, which keeps ``pagination`` in step with it. Draw the
/// rows from `loadingState.content` and animate them from ``Loading/didApply(_:)``;
/// ``Loading/configure(value:)`` is optional here, and keeping a copy of the list in
/// the conformer would make every page copy it.
@MainActor
public protocol Paginating: Loading
where ResourceType: RangeReplaceableCollection, ResourceType.Element: Sendable {
    /// What asks for a page: a page number, an offset, an opaque cursor, a URL.
    associatedtype Cursor: Sendable

    /// The resource of the page `cursor` asks for; `nil` asks for the first page.
    ///
    /// - Parameter cursor: The cursor of the page, from the page before or after it;
    ///   `nil` for the first page.
    /// - Returns: The page's resource, whose ``Page`` names its neighbours.
    func resource(forPage cursor: Cursor?) -> Resource<Page<ResourceType.Element, Cursor>>

    /// How close to either end an index must come for
    /// ``loadNextPageIfNeeded(currentIndex:)`` or
    /// ``loadPreviousPageIfNeeded(currentIndex:)`` to load a page. Default: 5.
    var prefetchDistance: Int { get }

    /// The most pages the content holds, or `nil` for no bound. A page beyond it drops
    /// pages at the other end, reported as ``ContentChange/removed(_:)``; they can be
    /// loaded back, so an endless list keeps a flat memory. Default: `nil`. Declare it
    /// `Int?`: `let maxPages = 5` is an `Int`, another member, reported at the first
    /// load and ignored.
    var maxPages: Int? { get }

    /// The items of `page` to add, given what is shown — `loadingState.content`, which
    /// during a reload of the pages held is the pages before this one (the kit builds
    /// the new list there, then puts the old one back before applying it, all in one
    /// main-actor turn). Default: all of
    /// them; for `Identifiable` items, those whose identifier is not shown yet (the
    /// server may shift items between pages) nor removed by ``Loading/edit(_:)``, each once — also for a generic conformer
    /// whose item type is only known to be `Identifiable` when it runs.
    ///
    /// - Parameter page: The items of a page, in list order.
    /// - Returns: The items to add, in list order.
    func itemsToAppend(from page: [ResourceType.Element]) -> [ResourceType.Element]
}

// MARK: - Default implementations

extension Paginating {
    /// Where the list is: the window of pages its core holds. The kit changes it.
    public var pagination: PaginationState<Cursor> { loading.pagination(of: Cursor.self) }

    /// ``pagination`` as the kit reads it: no observation is registered, so that a
    /// page or a load started in a view's body makes the view track nothing.
    var currentPagination: PaginationState<Cursor> {
        loading.currentPagination(of: Cursor.self)
    }

    /// Changes the window of pages in place.
    func changePagination<Result>(_ change: (inout PaginationState<Cursor>) -> Result) -> Result {
        loading.changePagination(of: Cursor.self, change)
    }

    /// 5.
    public var prefetchDistance: Int { 5 }

    /// `nil`: every page loaded stays.
    public var maxPages: Int? { nil }

    /// Does nothing: a list is drawn from ``Loading/loadingState`` and animated from
    /// ``Loading/didApply(_:)``.
    ///
    /// - Parameter value: The loaded list, unused.
    public func configure(value: ResourceType) {}

    /// The items whose identifier is not shown yet, each once, when the items are
    /// `Identifiable`; else all of them.
    ///
    /// - Parameter page: The items of a page, in list order.
    /// - Returns: The items to add, in list order.
    public func itemsToAppend(from page: [ResourceType.Element]) -> [ResourceType.Element] {
        guard ResourceType.Element.self is any Identifiable.Type else { return page }
        let core = loading
        var shown: Set<AnyHashable>
        switch core.takeIdentities() {
        case .erased(let kept): shown = kept
        case .none: shown = []
        case .known, .unknown:
            shown = Set(
                (loading.current.content ?? ResourceType()).lazy.compactMap(Self.identifier)
            )
            shown.formUnion(core.removedItems)
        }
        let fresh = page.filter { item in
            Self.identifier(of: item).map { shown.insert($0).inserted } ?? true
        }
        core.identities = .erased(shown)
        return fresh
    }

    /// The identifier of an item, when it is `Identifiable`.
    nonisolated static func identifier(of item: ResourceType.Element) -> AnyHashable? {
        func id(_ item: some Identifiable) -> AnyHashable { AnyHashable(item.id) }
        return (item as? any Identifiable).map { id($0) }
    }
}

extension Paginating where ResourceType.Element: Identifiable, ResourceType.Element.ID: Sendable {
    /// The items whose identifier is not shown yet, each once.
    ///
    /// - Parameter page: The items of a page, in list order.
    /// - Returns: The items to add, in list order.
    public func itemsToAppend(from page: [ResourceType.Element]) -> [ResourceType.Element] {
        typealias ID = ResourceType.Element.ID
        let core = loading
        var shown: Set<ID>
        switch core.takeIdentities() {
        case .known(let kept as Set<ID>): shown = kept
        case .none: shown = []
        default:
            shown = Set((loading.current.content ?? ResourceType()).lazy.map { $0.id })
            shown.formUnion(core.removedItems.lazy.compactMap { $0.base as? ID })
        }
        let fresh = page.filter { shown.insert($0.id).inserted }
        core.identities = .known(shown)
        return fresh
    }
}
