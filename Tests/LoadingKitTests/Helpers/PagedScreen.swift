import Foundation
import LoadingKit
import LoadingKitFixtures
import Testing

/// A `Paginating` list of identifiable items, whose page resources come from a
/// closure. (The conformance is made once for all `Item`s, so the item constraint
/// is what selects the deduplicating default of `itemsToAppend(from:)`.)
@MainActor
final class PagedScreen<Item: Sendable & Identifiable, Cursor: Sendable>: Paginating
where Item.ID: Sendable {
    let loading = LoadingCore<[Item]>()
    let webservice: Webservice
    var prefetchDistance = 5
    private let makeResource: (Cursor?) -> Resource<Page<Item, Cursor>>
    private(set) var changes: [ContentChange] = []
    private(set) var failures: [LoadingError] = []
    private(set) var configureCount = 0

    convenience init(
        transport: any Transport,
        resource: @escaping (Cursor?) -> Resource<Page<Item, Cursor>>
    ) {
        self.init(webservice: Webservice(transport: transport), resource: resource)
    }

    init(
        webservice: Webservice,
        resource: @escaping (Cursor?) -> Resource<Page<Item, Cursor>>
    ) {
        self.webservice = webservice
        makeResource = resource
    }

    func configure(value: [Item]) {
        configureCount += 1
    }

    func resource(forPage cursor: Cursor?) -> Resource<Page<Item, Cursor>> {
        makeResource(cursor)
    }

    func didApply(_ change: ContentChange) {
        changes.append(change)
    }

    func loadDidFail(_ error: LoadingError) {
        failures.append(error)
    }

    var items: [Item] { loadingState.content ?? [] }

    /// Loads the first page and then every next page.
    func loadAllPages() async {
        await loadFirstPage()
        while pagination.hasMorePages && pagination.pageError == nil {
            await loadNextPage()
        }
    }
}

/// A `Paginating` and `Refreshable` feed of posts.
@MainActor
final class PagedFeed: Paginating, Refreshable {
    let loading = LoadingCore<[Post]>()
    let webservice: Webservice
    var maxPages: Int?
    private(set) var changes: [ContentChange] = []

    init(transport: any Transport) {
        webservice = Webservice(transport: transport)
    }

    /// A feed on `webservice`, which other screens may share.
    init(webservice: Webservice) {
        self.webservice = webservice
    }

    func resource(forPage page: Int?) -> Resource<Page<Post, Int>> {
        .pageNumber(url: URL(string: "https://api.example.com/posts")!, page: page, size: 3)
    }

    func refreshResource(newerThan first: Post?) -> Resource<[Post]> {
        Post.feed(query: "?since=\(first?.id ?? 0)")
    }

    func didApply(_ change: ContentChange) {
        changes.append(change)
    }

    var ids: [Int] { loadingState.content?.map(\.id) ?? [] }
}

/// One JSONPlaceholder post.
struct PlaceholderPost: Codable, Sendable, Identifiable, Equatable {
    let userId: Int
    let id: Int
    let title: String
    let body: String
}

/// One GitHub issue of the octokit fixture.
struct GitHubIssue: Codable, Sendable, Identifiable, Equatable {
    let id: Int
    let number: Int
    let title: String
}

extension Fixtures {
    static var placeholderPosts: [PlaceholderPost] {
        get throws {
            try JSONDecoder().decode(
                [PlaceholderPost].self,
                from: data("jsonplaceholder/posts.json")
            )
        }
    }
}
