import Foundation
import LoadingKit
import Observation

/// One episode of the example's API.
public struct Episode: Codable, Sendable, Identifiable, Equatable {
    /// The episode's number.
    public let id: Int
    /// The episode's title.
    public let title: String

    /// Creates an episode.
    ///
    /// - Parameters:
    ///   - id: The episode's number.
    ///   - title: The episode's title.
    public init(id: Int, title: String) {
        self.id = id
        self.title = title
    }
}

/// The model of a SwiftUI list of episodes — ``EpisodeListView`` on Apple platforms:
/// it loads the first page when the list appears, merges new episodes at the head on
/// pull to refresh, and loads the next page as the last rows appear.
///
/// ```swift
/// let list = EpisodeList(firstPage: URL(string: "https://api.example.com/episodes")!)
/// await list.loadFirstPage()
/// await list.refresh()
/// list.loadNextPageIfNeeded(currentIndex: 49)
/// ```
///
/// `@Observable` is all SwiftUI needs: a view that reads `loadingState` is redrawn when
/// it changes, and each page is appended in place.
@Observable
@MainActor
public final class EpisodeList: Paginating, Refreshable {
    /// The rows, the activity and the last error: what the view draws.
    public let loading = LoadingCore<[Episode]>()
    /// Where the next and previous pages are.
    /// The webservice the pages come from.
    @ObservationIgnored public let webservice: Webservice
    /// The first page; the next ones come from its `Link` header.
    @ObservationIgnored public let firstPage: URL

    /// Creates a list.
    ///
    /// - Parameters:
    ///   - firstPage: The URL of the first page.
    ///   - webservice: The webservice the pages come from; `Webservice.shared` by
    ///     default.
    public init(firstPage: URL, webservice: Webservice = .shared) {
        self.firstPage = firstPage
        self.webservice = webservice
    }

    /// The page at `next`, or the first page: a JSON array whose `Link` header names
    /// the next page.
    ///
    /// - Parameter next: The URL of the page, `nil` for the first.
    /// - Returns: The page's resource.
    public func resource(forPage next: URL?) -> Resource<Page<Episode, URL>> {
        .linked(url: next ?? firstPage)
    }

    /// The first page again: its episodes not shown yet are merged at the head.
    ///
    /// - Parameter first: The first episode shown.
    /// - Returns: The first page's episodes.
    public func refreshResource(newerThan first: Episode?) -> Resource<[Episode]> {
        Resource(url: firstPage)
    }
}
