import LoadingKitNetworking

/// A ``Loading`` list that loads page after page: infinite scrolling by page number,
/// offset, cursor or `Link` header, with at most one page in flight, no item applied
/// twice and none dropped.
///
/// ```swift
/// @MainActor final class IssuesScreen: Paginating {
///     var loadingState = LoadingState<[Issue]>()
///     var pagination = PaginationState<URL>()
///     func configure(value: [Issue]) { tableView.reloadData() }
///     func resource(forPage next: URL?) -> Resource<Page<Issue, URL>> {
///         .linked(url: next ?? Issue.firstPageURL)
///     }
/// }
///
/// await screen.loadFirstPage()
/// await screen.loadNextPage()                      // no-op without more pages or while one loads
/// screen.loadNextPageIfNeeded(currentIndex: 42)    // the infinite-scroll trigger
/// ```
///
/// The first page replaces the content and each next page is appended, reported to
/// ``Loading/didApply(_:)`` as ``ContentChange/appended(_:)``. A next page is
/// validated on its own: ``Loading/validate(_:)`` receives its new items.
///
/// The list lives in ``Loading/loadingState``: each page is appended to it in place.
/// Keep no copy of the whole list in the conformer (read `loadingState.content` when
/// drawing): a copy makes every page copy the list.
@MainActor
public protocol Paginating: Loading
where ResourceType: RangeReplaceableCollection, ResourceType.Element: Sendable {
    /// What asks for a page: a page number, an offset, an opaque cursor, a URL.
    associatedtype Cursor: Sendable

    /// Where the list is. The kit changes it; conformers only store it, starting from
    /// `PaginationState()`.
    var pagination: PaginationState<Cursor> { get set }

    /// The resource of the page `cursor` asks for; `nil` asks for the first page.
    func resource(forPage cursor: Cursor?) -> Resource<Page<ResourceType.Element, Cursor>>

    /// How close to the end an index must come for
    /// ``loadNextPageIfNeeded(currentIndex:)`` to load the next page. Default: 5.
    var prefetchDistance: Int { get }

    /// The items of `page` to append, given what is shown. Default: all of them; for
    /// `Identifiable` items with `Sendable` identifiers, those whose identifier is not
    /// shown yet (the server may shift items between pages), each once. A generic
    /// conformer gets the second default only when its item type is constrained to
    /// `Identifiable` where it is declared.
    func itemsToAppend(from page: [ResourceType.Element]) -> [ResourceType.Element]
}

// MARK: - Default implementations

extension Paginating {
    /// 5.
    public var prefetchDistance: Int { 5 }

    /// All of them.
    public func itemsToAppend(from page: [ResourceType.Element]) -> [ResourceType.Element] {
        page
    }
}

extension Paginating where ResourceType.Element: Identifiable, ResourceType.Element.ID: Sendable {
    /// The items whose identifier is not shown yet, each once.
    public func itemsToAppend(from page: [ResourceType.Element]) -> [ResourceType.Element] {
        typealias ID = ResourceType.Element.ID
        let runtime = loadingRuntime
        var shown =
            runtime.takeIdentities() as? Set<ID>
            ?? Set((loadingState.content ?? ResourceType()).lazy.map(\.id))
        let fresh = page.filter { shown.insert($0.id).inserted }
        runtime.identities = shown
        return fresh
    }
}
