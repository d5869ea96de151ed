import Foundation
import LoadingKit

/// The demo's screen: a feed that loads its first page, pages through a
/// `Link`-paginated list and refreshes at the head. Everything it shows, a renderer
/// reads from `loadingState` and `pagination`.
@MainActor
final class FeedScreen: Refreshable, Paginating {
    var loadingState = LoadingState<[FeedItem]>()
    var pagination = PaginationState<URL>()
    let webservice: Webservice
    let firstPage: URL
    /// Told of every state change and every change to the rows.
    var onChange: (@MainActor (FeedScreen, ContentChange?) -> Void)?

    init(firstPage: URL, webservice: Webservice) {
        self.firstPage = firstPage
        self.webservice = webservice
    }

    func configure(value: [FeedItem]) {}  // rows are drawn from loadingState.content

    func resource(forPage next: URL?) -> Resource<Page<FeedItem, URL>> {
        .linked(url: next ?? firstPage)
    }

    func refreshResource(newerThan first: FeedItem?) -> Resource<[FeedItem]> {
        Resource(url: firstPage)  // the newest page; the overlap tells what is new
    }

    func didApply(_ change: ContentChange) {
        onChange?(self, change)
    }

    func loadingStateDidChange(
        from oldState: LoadingState<[FeedItem]>,
        to newState: LoadingState<[FeedItem]>
    ) {
        onChange?(self, nil)
    }
}
