import Foundation
import LoadingKit

/// The demo's screen: a feed that loads its first page, pages through a
/// `Link`-paginated list in both directions holding at most four pages, and
/// refreshes at the head. Everything it shows, a renderer reads from `loadingState`
/// and `pagination`; it keeps no copy of the list.
@MainActor
final class FeedScreen: Paginating, Refreshable {
    let loading = LoadingCore<[FeedItem]>()
    let webservice: Webservice
    let firstPage: URL
    /// Four pages at most, the demo's window; `nil` keeps every page.
    let maxPages: Int?
    /// Told of every state change and every change to the rows.
    var onChange: (@MainActor (FeedScreen, ContentChange?) -> Void)?
    /// What the last load did — refresh, reload, or a page either way — kept after it
    /// ends, so that the rows a change brings can be told apart: newly published
    /// stories, or older or newer ones of a page.
    private(set) var lastLoad = LoadingActivity.idle

    init(firstPage: URL, webservice: Webservice, maxPages: Int? = 4) {
        self.firstPage = firstPage
        self.webservice = webservice
        self.maxPages = maxPages
    }

    func resource(forPage next: URL?) -> Resource<Page<FeedItem, URL>> {
        .linked(url: next ?? firstPage)
    }

    func refreshResource(newerThan first: FeedItem?) -> Resource<[FeedItem]> {
        Resource(url: firstPage)  // the newest page; the overlap tells what is new
    }

    func didApply(_ change: ContentChange) { onChange?(self, change) }

    func loadingStateDidChange(
        from oldState: LoadingState<[FeedItem]>,
        to newState: LoadingState<[FeedItem]>
    ) {
        if newState.activity != .idle {
            lastLoad = newState.activity
        }
        onChange?(self, nil)
    }
}
