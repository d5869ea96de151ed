import Foundation
import LoadingKit
import LoadingKitTesting
import Observation
import Testing

/// A feed whose settings are all declared with a near-miss type: each compiles, none is
/// the requirement, and the defaults are used.
@MainActor
private final class NearMissFeed: Paginating, Refreshable {
    let loading = LoadingCore<[Post]>()
    let webservice: Webservice
    let resource = Post.feed(query: "")  // not the optional the requirement is
    let configuresEmptyValues: Bool? = true
    let cancelsLoadingOnDisappear: Bool? = true
    let maxAge = Duration.seconds(5)
    let revalidationInterval = Duration.seconds(60)
    let failureRetryInterval = 5
    let loadingClock = ManualClock()
    let prefetchDistance = 2.5
    let maxPages = 5
    let refreshPageSize = 20
    let refreshPageLimit: Int? = 3
    let refreshReplacesContent: Bool? = true

    init(webservice: Webservice) {
        self.webservice = webservice
    }

    func resource(forPage page: Int?) -> Resource<Page<Post, Int>> {
        .pageNumber(url: URL(string: "https://api.example.com/posts")!, page: page, size: 3)
    }

    func refreshResource(newerThan first: Post?) -> Resource<[Post]> {
        Post.feed(query: "?since=\(first?.id ?? 0)")
    }
}

/// The same feed with every setting declared as the requirement asks.
@MainActor
private final class WellDeclaredFeed: Paginating, Refreshable {
    let loading = LoadingCore<[Post]>()
    let webservice: Webservice
    let resource: Resource<[Post]>? = Post.feed(query: "")
    let configuresEmptyValues = true
    let maxAge: Duration? = .seconds(5)
    let failureRetryInterval = Duration.seconds(5)
    let loadingClock: any Clock<Duration> = ManualClock()
    let maxPages: Int? = 5
    let refreshPageSize: Int? = 20

    init(webservice: Webservice) {
        self.webservice = webservice
    }

    func resource(forPage page: Int?) -> Resource<Page<Post, Int>> {
        .pageNumber(url: URL(string: "https://api.example.com/posts")!, page: page, size: 3)
    }

    func refreshResource(newerThan first: Post?) -> Resource<[Post]> {
        Post.feed(query: "?since=\(first?.id ?? 0)")
    }
}

/// Keeps a value, as a property wrapper a conformer might use for a setting.
@propertyWrapper
private struct Kept<Value> {
    var wrappedValue: Value
}

/// Settings that are the requirements, stored in a property wrapper or a field of the
/// conformer's own named with an underscore: nothing to report.
@MainActor
private final class WrappedFeed: Paginating {
    let loading = LoadingCore<[Post]>()
    let webservice: Webservice
    @Kept var maxPages: Int? = 5
    private let _prefetchDistance = 2
    var prefetchDistance: Int { _prefetchDistance }

    init(webservice: Webservice) {
        self.webservice = webservice
    }

    func resource(forPage page: Int?) -> Resource<Page<Post, Int>> {
        .pageNumber(url: URL(string: "https://api.example.com/posts")!, page: page, size: 3)
    }
}

/// A near miss kept in a property wrapper: its `wrappedValue` is an `Int`.
@MainActor
private final class WrappedNearMissFeed: Paginating {
    let loading = LoadingCore<[Post]>()
    let webservice: Webservice
    @Kept var maxPages = 5

    init(webservice: Webservice) {
        self.webservice = webservice
    }

    func resource(forPage page: Int?) -> Resource<Page<Post, Int>> {
        .pageNumber(url: URL(string: "https://api.example.com/posts")!, page: page, size: 3)
    }
}

/// An observable screen: `@Observable` stores `maxPages` as `_maxPages`, still an `Int`.
@MainActor
@Observable
private final class ObservedFeed: Paginating {
    let loading = LoadingCore<[Post]>()
    let webservice: Webservice
    var maxPages = 5
    var revalidationInterval: [String: Duration?] = [:]
    var maxAge: Result<Duration?, any Error> = .success(nil)

    init(webservice: Webservice) {
        self.webservice = webservice
    }

    func resource(forPage page: Int?) -> Resource<Page<Post, Int>> {
        .pageNumber(url: URL(string: "https://api.example.com/posts")!, page: page, size: 3)
    }
}

/// A screen class whose near miss is declared by its superclass.
@MainActor
private class BaseFeed: Paginating {
    let loading = LoadingCore<[Post]>()
    let webservice: Webservice
    let maxPages = 5

    init(webservice: Webservice) {
        self.webservice = webservice
    }

    func resource(forPage page: Int?) -> Resource<Page<Post, Int>> {
        .pageNumber(url: URL(string: "https://api.example.com/posts")!, page: page, size: 3)
    }
}

@MainActor
private final class MarkedFeed: BaseFeed {
    var marked: Set<Int> = []
}

@MainActor
@Suite("Settings declared with a near-miss type", .timeLimit(.minutes(1)))
struct SettingsCheckTests {
    let mock = MockTransport()
    let recorder = EventRecorder()

    private var webservice: Webservice {
        Webservice(transport: mock, configuration: .init(monitor: recorder))
    }

    private var ignored: [String] {
        recorder.events.compactMap { event in
            guard case .settingIgnored(let name, _, _) = event.kind else { return nil }
            return name
        }
    }

    @Test("each setting declared with another type is reported once, at the first load")
    func reported() async {
        mock.respond(to: "/posts?page=1&per_page=3", with: .json(Post.list([1])))
        let feed = NearMissFeed(webservice: webservice)
        await feed.loadFirstPage()
        let expected = [
            "resource", "configuresEmptyValues", "cancelsLoadingOnDisappear", "maxAge",
            "revalidationInterval", "failureRetryInterval", "loadingClock", "prefetchDistance",
            "maxPages", "refreshPageSize", "refreshPageLimit", "refreshReplacesContent",
        ]
        #expect(Set(ignored) == Set(expected.map { "NearMissFeed.\($0)" }))
        #expect(ignored.count == expected.count)
        let maxPages = recorder.events.first {
            if case .settingIgnored("NearMissFeed.maxPages", _, _) = $0.kind { true } else { false }
        }
        #expect(
            maxPages?.kind
                == .settingIgnored(
                    name: "NearMissFeed.maxPages",
                    declared: "Int",
                    expected: "Int?"
                )
        )
        // Once per type: another screen of it, and another load, say nothing more.
        await feed.refresh()
        await NearMissFeed(webservice: webservice).loadFirstPage()
        #expect(ignored.count == expected.count)
    }

    @Test(
        "a setting kept in a property wrapper or behind a field named with an underscore is not reported"
    )
    func wrappedNotReported() async {
        mock.respond(to: "/posts?page=1&per_page=3", with: .json(Post.list([1])))
        let feed = WrappedFeed(webservice: webservice)
        await feed.loadFirstPage()
        #expect(feed.maxPages == 5)
        #expect(ignored.isEmpty)
    }

    @Test("a near miss kept in a property wrapper is reported with the wrapped value's type")
    func wrappedNearMiss() async {
        mock.respond(to: "/posts?page=1&per_page=3", with: .json(Post.list([1])))
        await WrappedNearMissFeed(webservice: webservice).loadFirstPage()
        #expect(
            recorder.events.map(\.kind).contains(
                .settingIgnored(
                    name: "WrappedNearMissFeed.maxPages",
                    declared: "Int",
                    expected: "Int?"
                )
            )
        )
        #expect(ignored == ["WrappedNearMissFeed.maxPages"])
    }

    @Test("an observable screen's near misses are reported, their types spelled as declared")
    func observable() async {
        mock.respond(to: "/posts?page=1&per_page=3", with: .json(Post.list([1])))
        await ObservedFeed(webservice: webservice).loadFirstPage()
        let kinds = recorder.events.map(\.kind).filter {
            if case .settingIgnored = $0 { true } else { false }
        }
        #expect(kinds.count == 3)
        #expect(
            kinds.contains(
                .settingIgnored(name: "ObservedFeed.maxPages", declared: "Int", expected: "Int?")
            )
        )
        #expect(
            kinds.contains(
                .settingIgnored(
                    name: "ObservedFeed.revalidationInterval",
                    declared: "[String: Duration?]",
                    expected: "Duration?"
                )
            )
        )
        #expect(
            kinds.contains(
                .settingIgnored(
                    name: "ObservedFeed.maxAge",
                    declared: "Result<Duration?, Error>",
                    expected: "Duration?"
                )
            )
        )
    }

    @Test("a subclass is checked as itself, with the stored properties of its superclass")
    func subclass() async {
        for _ in 0..<2 {
            mock.respond(to: "/posts?page=1&per_page=3", with: .json(Post.list([1])))
        }
        await MarkedFeed(webservice: webservice).loadFirstPage()
        await BaseFeed(webservice: webservice).loadFirstPage()
        #expect(ignored.sorted() == ["BaseFeed.maxPages", "MarkedFeed.maxPages"])
    }

    @Test("settings declared as the requirements ask are not reported")
    func wellDeclared() async {
        mock.respond(to: "/posts?page=1&per_page=3", with: .json(Post.list([1])))
        let feed = WellDeclaredFeed(webservice: webservice)
        await feed.loadFirstPage()
        #expect(feed.maxPages == 5)
        #expect(ignored.isEmpty)
    }
}
