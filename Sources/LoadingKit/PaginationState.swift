/// Where a ``Paginating`` list is: how many pages are loaded, what asks for the next
/// one, whether there is one, and why the last next page failed.
///
/// ```swift
/// var pagination = PaginationState<URL>()
///
/// if screen.pagination.pageError != nil { showRetryFooter() }
/// else if screen.pagination.hasMorePages { showSpinnerFooter() }
/// ```
public struct PaginationState<Cursor: Sendable>: Sendable {
    /// How many pages have been applied since the first page (the first included).
    public internal(set) var pagesLoaded: Int
    /// What asks for the next page; `nil` asks for the first page.
    public internal(set) var nextCursor: Cursor?
    /// Whether there is a next page (the seeds' `shouldBeginLoadingNextPage`); `false`
    /// until the first page is loaded.
    public internal(set) var hasMorePages: Bool
    /// Why the last next page failed; cleared when a page succeeds. The items loaded
    /// stay shown, and ``Paginating/loadNextPage()`` asks for the same page again.
    public internal(set) var pageError: LoadingError?

    /// The state before the first page.
    public init() {
        pagesLoaded = 0
        nextCursor = nil
        hasMorePages = false
        pageError = nil
    }

    /// Whether the first page has been loaded.
    public var hasFirstPage: Bool { pagesLoaded > 0 }
}
