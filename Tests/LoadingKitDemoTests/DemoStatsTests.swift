import Foundation
import LoadingKit
import LoadingKitTesting
import Testing

@testable import loadingkit_demo

@MainActor
@Suite("the main feed's counts", .timeLimit(.minutes(1)))
struct DemoStatsTests {
    /// A feed screen on `feed` whose every change `stats` follows.
    private func screen(on feed: DemoFeedServer, stats: DemoStats) -> FeedScreen {
        let screen = FeedScreen(firstPage: feed.firstPage, webservice: Self.webservice())
        screen.onChange = { screen, _ in stats.observe(screen.loadingState) }
        return screen
    }

    private static func webservice() -> Webservice {
        Webservice(transport: URLSessionTransport(configuration: .init(timeout: 10)))
    }

    @Test("the requests counted are the main feed's, not the filter screen's")
    func mainFeedOnly() async throws {
        let feed = try DemoFeedServer(delay: .zero)
        defer { feed.server.stop() }
        let stats = DemoStats(feed: feed)
        let main = screen(on: feed, stats: stats)
        #expect(stats.line(for: main) == "0 pages held · 0 items · no request yet")
        #expect(stats.delayNote == nil)
        await main.loadFirstPage()
        let filtered = FeedScreen(firstPage: feed.emptyFilter, webservice: Self.webservice())
        await filtered.loadFirstPage()

        #expect(feed.server.requests.count == 2)
        #expect(stats.requests == 1)
        #expect(stats.line(for: main).hasPrefix("1 page held · 30 items · 1 request · "))
        #expect(stats.timing.hasSuffix(" ms/request"))
    }

    @Test("while the first request is on its way, the line says so, not that none was sent")
    func firstRequestInFlight() async throws {
        let feed = try DemoFeedServer(delay: .zero)
        defer { feed.server.stop() }
        let stats = DemoStats(feed: feed)
        // Held before the server: the feed server has counted nothing yet.
        let gate = MockTransport.Gate()
        let mock = MockTransport()
        let empty = MockResponse(
            statusCode: 200,
            headers: [("Content-Type", "application/json")],
            body: Data("[]".utf8)
        )
        mock.respond(to: "/feed?page=1", with: empty, after: gate)
        let main = FeedScreen(firstPage: feed.firstPage, webservice: Webservice(transport: mock))
        main.onChange = { screen, _ in stats.observe(screen.loadingState) }
        let first = main.startLoadingFirstPage()
        await gate.waitForArrivals()
        #expect(stats.line(for: main) == "0 pages held · 0 items · the first request in flight")
        first.cancel()
        gate.open()
        await first.finish()
    }

    @Test("the time per request leaves out the server's artificial delay, and says so")
    func delayExcluded() async throws {
        let delay = Duration.milliseconds(200)
        let feed = try DemoFeedServer(delay: delay)
        defer { feed.server.stop() }
        let stats = DemoStats(feed: feed)
        let started = ContinuousClock.now
        await screen(on: feed, stats: stats).loadFirstPage()
        let elapsed = started.duration(to: .now)

        #expect(stats.requests == 1)
        // The request's time in flight lies within the test's, and it counts the delay
        // only if the delay was not taken off: then it would not fit.
        #expect(stats.timePerRequest + delay <= elapsed)
        #expect(stats.timing.hasSuffix(" ms/request"))
        #expect(
            stats.delayNote
                == "the demo's server holds every answer 200 ms, so that each step can be seen; "
                + "times per request leave it out"
        )
    }
}
