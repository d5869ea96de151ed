import Foundation
import LoadingKit

struct Post: Codable, Sendable, Identifiable, Equatable {
    let id: Int
    let title: String

    init(_ id: Int) {
        self.init(id: id, title: "Post \(id)")
    }

    init(id: Int, title: String) {
        self.id = id
        self.title = title
    }

    /// Posts `ids`, newest first as given.
    static func list(_ ids: some Sequence<Int>) -> [Post] { ids.map(Post.init) }

    static let baseURL = URL(string: "https://api.example.com")!

    static func feed(query: String = "", baseURL: URL = baseURL) -> Resource<[Post]> {
        Resource(url: URL(string: "\(baseURL)/posts\(query)")!)
    }
}

/// A `Refreshable` feed of posts, newest first. A refresh asks `/posts?since=FIRST`;
/// a following page `/posts?since=FIRST&before=LAST`.
@MainActor
final class FeedScreen: Refreshable {
    let loading = LoadingCore<[Post]>()
    let webservice: Webservice
    let baseURL: URL
    var refreshPageSize: Int?
    var refreshPageLimit = 5
    var refreshReplacesContent = false
    var followsPages = true
    private(set) var rows: [Post] = []
    private(set) var changes: [ContentChange] = []
    private(set) var configureCount = 0
    private(set) var failures: [LoadingError] = []

    init(
        transport: any Transport,
        baseURL: URL = Post.baseURL,
        monitor: (any LoadingMonitor)? = nil
    ) {
        webservice = Webservice(transport: transport, configuration: .init(monitor: monitor))
        self.baseURL = baseURL
    }

    func configure(value: [Post]) {
        configureCount += 1
        rows = value
    }

    func refreshResource(newerThan first: Post?) -> Resource<[Post]> {
        Post.feed(query: first.map { "?since=\($0.id)" } ?? "", baseURL: baseURL)
    }

    func refreshResource(following page: [Post], newerThan first: Post?) -> Resource<[Post]>? {
        guard followsPages, let last = page.last else { return nil }
        return Post.feed(query: "?since=\(first?.id ?? 0)&before=\(last.id)", baseURL: baseURL)
    }

    func didApply(_ change: ContentChange) {
        changes.append(change)
    }

    func loadDidFail(_ error: LoadingError) {
        failures.append(error)
    }

    var ids: [Int] { rows.map(\.id) }
}

/// A `Refreshable` whose content is one value, refreshed by replacement.
@MainActor
final class ScoreScreen: Refreshable {
    let loading = LoadingCore<Episode>()
    let webservice: Webservice
    private(set) var changes: [ContentChange] = []

    init(transport: any Transport) {
        webservice = Webservice(transport: transport)
    }

    func configure(value: Episode) {}

    func refreshResource(newerThan current: Episode?) -> Resource<Episode> {
        Episode.resource(id: 1)
    }

    func didApply(_ change: ContentChange) {
        changes.append(change)
    }
}
