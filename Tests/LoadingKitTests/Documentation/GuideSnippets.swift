import Foundation
import LoadingKit
import LoadingKitTesting
import Observation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

#if canImport(SwiftUI)
    import SwiftUI
#endif

// The code of the SwiftUI article, the networking and testing catalogs and the README's
// SwiftUI and logging sections, compiled here as in DocumentationSnippets.swift.

/// The SwiftUI article's types, apart from the README's.
enum SwiftUIArticle {
    // snippet: swiftui-model
    struct Episode: Codable, Sendable, Identifiable {
        let id: Int
        let title: String
    }

    @Observable
    @MainActor
    final class EpisodeList: Paginating, Refreshable {
        let loading = LoadingCore<[Episode]>()
        @ObservationIgnored let webservice: Webservice
        @ObservationIgnored let firstPage: URL

        init(firstPage: URL, webservice: Webservice = .shared) {
            self.firstPage = firstPage
            self.webservice = webservice
        }

        func resource(forPage next: URL?) -> Resource<Page<Episode, URL>> {
            .linked(url: next ?? firstPage)  // follows Link: <…>; rel="next"
        }

        func refreshResource(newerThan first: Episode?) -> Resource<[Episode]> {
            Resource(url: firstPage)  // new episodes are merged at the head
        }
    }
    // end snippet
}

#if canImport(SwiftUI)
    extension SwiftUIArticle {
        // snippet: swiftui-view
        struct EpisodeListView: View {
            @State var list: EpisodeList

            var body: some View {
                let episodes = list.loadingState.content ?? []
                List {
                    ForEach(Array(episodes.enumerated()), id: \.element.id) { index, episode in
                        Text(episode.title)
                            .onAppear { list.loadNextPageIfNeeded(currentIndex: index) }
                    }
                    if list.loadingState.activity == .loadingNextPage {
                        ProgressView()
                    }
                    if list.pagination.pageError != nil {
                        Button("Load more") { Task { await list.loadNextPage() } }
                    }
                }
                .overlay { placeholder }
                .refreshable { await list.refresh() }
                .task { await list.loadFirstPage() }
            }

            @ViewBuilder var placeholder: some View {
                switch list.loadingState.placeholder {
                case .blank, .content: EmptyView()
                case .loading: ProgressView()
                case .empty: ContentUnavailableView("No episodes yet", systemImage: "tv")
                case .error(let error):
                    ContentUnavailableView {
                        Label("Couldn't load the episodes", systemImage: "wifi.exclamationmark")
                    } description: {
                        Text(error.description)
                    } actions: {
                        Button("Try again") { Task { await list.reload() } }
                    }
                }
            }
        }
        // end snippet
    }
#endif

// snippet: networking-model
struct Article: Codable, Sendable {
    let id: Int
    let title: String
}

extension Article {
    static let base = URL(string: "https://api.example.com/articles")!

    static func page(_ number: Int) -> Resource<[Article]> {
        Resource(url: base, query: [URLQueryItem(name: "page", value: String(number))])
    }

    static func create(_ draft: Article, token: String) throws -> Resource<Article> {
        try Resource(url: base, method: .post, body: draft)
            .header("Authorization", "Bearer \(token)")
    }
}
// end snippet

// snippet: testing-overview
@Test(.timeLimit(.minutes(1))) @MainActor func showsTheEpisode() async throws {
    let mock = MockTransport()
    mock.respond(to: "/episodes/1", with: .json(Episode(id: 1, title: "Pilot")))
    let screen = TestableEpisodeScreen(webservice: Webservice(transport: mock))
    await screen.load(resource: Episode.resource(id: 1))
    #expect(screen.title == "Pilot")
}
// end snippet

/// What the snippets call that the documents leave out.
struct Metrics: Sendable {
    func record(status: Int, duration: Duration) {}
}

struct Match: Codable, Sendable, Equatable {
    let home: Int
    let away: Int

    static func search(_ query: String) -> Resource<Match> {
        Resource(
            url: URL(string: "https://api.example.com/matches")!,
            query: [URLQueryItem(name: "q", value: query)]
        )
    }
}

// snippet: fresh-interval
@MainActor final class MatchScreen: Loading {
    let loading = LoadingCore<Match>()
    var revalidationInterval: Duration? { .seconds(30) }  // while the screen is live
    func configure(value: Match) {}
}
// end snippet

@MainActor
enum FreshSnippets {
    static func comingBack(webservice: Webservice) {
        // snippet: fresh-active
        webservice.revalidateStaleScreens()  // the app is active again, or back online
        // end snippet
    }

    static func searching(results: MatchScreen, query: String) async {
        // snippet: fresh-keep-previous
        await results.load(resource: Match.search(query), policy: .ifNeeded.keepingPreviousContent)
        print(results.loadingState.isPreviousContent)  // false once the new answer applied
        // end snippet
    }
}

@MainActor
enum GuideSnippets {
    static let metrics = Metrics()

    static func signIn() {}

    static func monitored() {
        // snippet: logging-printer
        let webservice = Webservice(configuration: .init(monitor: LoadingEventPrinter()))
        // end snippet
        _ = webservice
    }

    static func monitoredWithComments() {
        // snippet: swiftui-logging
        let webservice = Webservice(configuration: .init(monitor: LoadingEventPrinter()))
        // → GET https://api.example.com/episodes
        // ← 200 GET https://api.example.com/episodes · 1024 bytes · 38 ms
        // [EpisodeList] stored value shown at once for GET https://api.example.com/episodes
        // end snippet
        _ = webservice
    }

    static func overview() async throws {
        // snippet: networking-overview
        struct Episode: Codable, Sendable {
            let id: Int
            let title: String
        }

        let episode = Resource<Episode>(url: URL(string: "https://api.example.com/episodes/1")!)
        let pilot = try await Webservice.shared.load(episode)
        // end snippet
        _ = pilot
    }

    static func loading() async throws {
        // snippet: networking-load
        let webservice = Webservice()  // on URLSessionTransport.shared
        let articles = try await webservice.load(Article.page(1))
        // end snippet
        _ = articles
    }

    static func failures(webservice: Webservice) async {
        // snippet: networking-failures
        do {
            _ = try await webservice.load(Article.page(1))
        } catch .badStatus(let failure) where failure.statusCode == 401 {
            signIn()
        } catch .decoding(let failure) {
            print(failure)  // Decoding failed at [3].title for GET …/articles
        } catch .cancelled {
            // not a failure: nobody wants the value any more
        } catch {
            print(error)  // Transport failure for GET …: The request timed out.
        }
        // end snippet
    }

    static func configuring() {
        // snippet: networking-configuration
        let webservice = Webservice(
            configuration: .init(
                retry: .standard,  // backoff with jitter, Retry-After, idempotent methods only
                monitor: LoadingEventPrinter()  // one line per request and decision
            )
        )
        // end snippet
        _ = webservice
    }

    static func streaming() {
        // snippet: logging-stream
        let stream = LoadingEventStream()
        let webservice = Webservice(configuration: .init(monitor: stream))
        Task {
            for await event in stream.events {
                if case .finished(let status, _, let duration) = event.kind {
                    metrics.record(status: status, duration: duration)
                }
            }
        }
        // end snippet
        _ = webservice
    }

    static func scripting() async throws {
        let pilot = Episode(id: 1, title: "Pilot")
        // snippet: testing-script
        let mock = MockTransport()
        mock.respond(to: "/episodes/1", with: .json(pilot, headers: ["ETag": #""v1""#]))
        mock.respond(to: "/episodes/1", with: .status(304))
        mock.fail("/episodes/2", with: URLError(.notConnectedToInternet))

        let webservice = Webservice(transport: mock)
        _ = try await webservice.load(Episode.resource(id: 1))
        #expect(mock.requests.count == 1)
        // end snippet
    }

    static func gating(
        screen: PostsScreen,
        mock: MockTransport,
        feed: Resource<[Post]>,
        old: [Post],
        new: [Post]
    ) async {
        // snippet: testing-gate
        let first = MockTransport.Gate()
        mock.respond(to: "/feed", with: .json(old), after: first)
        mock.respond(to: "/feed", with: .json(new))
        async let stale: Void = screen.load(resource: feed, policy: .force)
        await first.waitForArrivals(1)  // the first request is held
        await screen.load(resource: feed, policy: .force)  // the second one completes
        first.open()  // the first, now superseded, arrives last
        await stale
        #expect(screen.loadingState.content == new)
        // end snippet
    }

    static func serving() async throws {
        // snippet: testing-server
        let server = try LoopbackServer()
        server.route("/slow") { _ in
            .text("xxxxxxxxxx").trickled(in: 10, every: .milliseconds(100))
        }
        let transport = URLSessionTransport()
        let body = try await Webservice(transport: transport).load(
            Resource<String>(request: URLRequest(url: server.url("/slow"))) { data, _ in
                String(decoding: data, as: UTF8.self)
            }
        )
        // end snippet
        _ = body
    }

    static func clocking(mock: MockTransport, resource: Resource<Episode>) async throws {
        // snippet: testing-clock
        let clock = ManualClock()
        let webservice = Webservice(
            transport: mock,
            configuration: .init(retry: .standard, clock: clock)
        )
        let load = Task { try await webservice.load(resource) }
        await clock.run(sleeps: 2)  // through both backoffs, however long they are
        _ = try await load.valuePropagatingCancellation
        #expect(clock.sleeps.count == 2)
        // end snippet
    }

    static func recording(mock: MockTransport, resource: Resource<Episode>) async throws {
        // snippet: testing-recorder
        let recorder = EventRecorder()
        let webservice = Webservice(transport: mock, configuration: .init(monitor: recorder))
        _ = try await webservice.load(resource)
        #expect(recorder.lines.first == "→ GET https://api.example.com/episodes/1")
        // end snippet
    }
}
