import Foundation
import LoadingKit
import LoadingKitTesting
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

    @Test("settings declared as the requirements ask are not reported")
    func wellDeclared() async {
        mock.respond(to: "/posts?page=1&per_page=3", with: .json(Post.list([1])))
        let feed = WellDeclaredFeed(webservice: webservice)
        await feed.loadFirstPage()
        #expect(feed.maxPages == 5)
        #expect(ignored.isEmpty)
    }
}
