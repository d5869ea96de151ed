import LoadingKitNetworking

/// A ``Loading`` type with pull-to-refresh: a refresh keeps the content visible,
/// prepends newer items, reports exactly which indices it inserted, and closes gaps
/// by fetching following pages of newer items.
///
/// ```swift
/// @MainActor final class FeedScreen: Refreshable {
///     let loading = LoadingCore<[Post]>()
///     func configure(value: [Post]) {}  // rows are drawn from loadingState.content
///     func refreshResource(newerThan first: Post?) -> Resource<[Post]> { Post.feed(since: first?.id) }
///     func didApply(_ change: ContentChange) { /* insert rows at change.inserted, or reload all */ }
/// }
///
/// await feed.refresh()
/// ```
///
/// Two styles of API are served. One answers the refresh resource with the newest
/// page of the list, overlapping what is shown: the overlap tells where new items
/// end. The other answers with items newer than the anchor only: set
/// ``refreshPageSize`` so that a page shorter than it is known to be complete. Either
/// way, a page without overlap may hide a gap; ``refreshResource(following:newerThan:)``
/// fetches the following page of newer items, up to ``refreshPageLimit`` pages, and
/// when the gap cannot be closed the content is replaced rather than left with a hole
/// — on a ``Paginating`` list, by its first page, so that the pages that follow line
/// up.
///
/// Draw a list from ``Loading/loadingState`` and animate it from
/// ``Loading/didApply(_:)``: a copy of the list kept in the conformer is copied again
/// by every change.
@MainActor
public protocol Refreshable: Loading {
    /// What a refresh asks "newer than": for a list, its first (newest) item.
    associatedtype RefreshAnchor: Sendable

    /// The resource of the newest items, newer than `anchor` when the API supports it;
    /// `anchor` is `nil` when nothing is loaded.
    ///
    /// - Parameter anchor: The anchor of the content shown, from
    ///   ``refreshAnchor(of:)``; `nil` when nothing is loaded.
    /// - Returns: The resource of the newest items.
    func refreshResource(newerThan anchor: RefreshAnchor?) -> Resource<ResourceType>

    /// The resource of the newer items that follow `page` (older than its last item,
    /// newer than `anchor`), to close a gap; `nil` when the API cannot say. Default:
    /// `nil`.
    ///
    /// - Parameters:
    ///   - page: The page fetched last, which does not reach the content shown.
    ///   - anchor: The anchor of the content shown; `nil` when nothing is loaded.
    /// - Returns: The resource of the following page, or `nil` when the API cannot
    ///   say.
    func refreshResource(
        following page: ResourceType,
        newerThan anchor: RefreshAnchor?
    ) -> Resource<ResourceType>?

    /// The anchor of the content shown. Default: the first element of a collection
    /// whose anchor is its element, or the content itself when the anchor is the
    /// content.
    ///
    /// - Parameter content: The content shown.
    /// - Returns: Its anchor, or `nil` when it has none, such as an empty list.
    func refreshAnchor(of content: ResourceType) -> RefreshAnchor?

    /// The most items a refresh page holds, when known: a page without overlap that
    /// is shorter than this leaves no gap. Default: `nil`, unknown. Declare it `Int?`:
    /// `let refreshPageSize = 20` is an `Int`, another member, reported at the first
    /// load and ignored.
    var refreshPageSize: Int? { get }

    /// The most pages one refresh fetches while closing a gap. Default: 5.
    var refreshPageLimit: Int { get }

    /// Whether a refresh replaces the content as a whole instead of merging. Default:
    /// `false`.
    var refreshReplacesContent: Bool { get }

    /// Merges the pages a refresh fetched, newest first, into the content. Default:
    /// for a collection of `Identifiable` elements, prepends the fetched items not shown
    /// that come before the last item already shown (in their order) and keeps the
    /// content in place, reporting
    /// ``ContentChange/inserted(_:)``; otherwise, or when ``refreshReplacesContent``
    /// is set, replaces the content.
    ///
    /// - Parameters:
    ///   - pages: The pages the refresh fetched, newest first; at least one.
    ///   - content: The content shown.
    /// - Returns: The content to show and what changed, or a gap with the content to
    ///   show if it cannot be closed.
    func mergeRefresh(_ pages: [ResourceType], into content: ResourceType) -> RefreshMerge<
        ResourceType
    >
}

// MARK: - Default implementations

extension Refreshable {
    /// `nil`: gaps cannot be closed.
    ///
    /// - Parameters:
    ///   - page: The page fetched last.
    ///   - anchor: The anchor of the content shown.
    /// - Returns: `nil`.
    public func refreshResource(
        following page: ResourceType,
        newerThan anchor: RefreshAnchor?
    ) -> Resource<ResourceType>? { nil }

    /// `nil`.
    public var refreshPageSize: Int? { nil }

    /// 5.
    public var refreshPageLimit: Int { 5 }

    /// `false`.
    public var refreshReplacesContent: Bool { false }

    /// Replaces the content with the newest page.
    ///
    /// - Parameters:
    ///   - pages: The pages the refresh fetched, newest first.
    ///   - content: The content shown, unused.
    /// - Returns: The newest page, as a replacement.
    public func mergeRefresh(_ pages: [ResourceType], into content: ResourceType)
        -> RefreshMerge<ResourceType>
    {
        .merged(pages[pages.count - 1], .replaced)
    }
}

extension Refreshable where RefreshAnchor == ResourceType {
    /// The content itself.
    ///
    /// - Parameter content: The content shown.
    /// - Returns: `content`.
    public func refreshAnchor(of content: ResourceType) -> RefreshAnchor? { content }
}

extension Refreshable where ResourceType: Collection, RefreshAnchor == ResourceType.Element {
    /// The first element.
    ///
    /// - Parameter content: The content shown.
    /// - Returns: Its first element, or `nil` when it is empty.
    public func refreshAnchor(of content: ResourceType) -> RefreshAnchor? { content.first }
}

extension Refreshable
where ResourceType: RangeReplaceableCollection, ResourceType.Element: Identifiable {
    /// Prepends the fetched items not shown that come before the last item already
    /// shown — leaving out those ``Loading/edit(_:)`` removed — and keeps the content in
    /// place.
    ///
    /// - Parameters:
    ///   - pages: The pages the refresh fetched, newest first.
    ///   - content: The content shown.
    /// - Returns: The content with the new items and the indices they were inserted at,
    ///   a gap when the pages do not reach the content, or a replacement when
    ///   ``refreshReplacesContent`` is set.
    public func mergeRefresh(_ pages: [ResourceType], into content: ResourceType)
        -> RefreshMerge<ResourceType>
    {
        HeadMerge(
            pages: pages,
            content: content,
            pageSize: refreshPageSize,
            removed: loading.removedItems
        )
        .outcome(replacing: refreshReplacesContent)
    }
}
