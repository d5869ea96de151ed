import Foundation
import LoadingKit
import LoadingKitFixtures
import LoadingKitTesting
import Testing

/// A screen with a max-age, a failure retry interval and a manual clock.
@MainActor
final class FreshScreen: Loading {
    let loading = LoadingCore<Episode>()
    let webservice: Webservice
    let loadingClock: any Clock<Duration>
    var maxAge: Duration? = .seconds(60)
    var failureRetryInterval: Duration = .seconds(10)
    private(set) var configured: [String] = []

    init(transport: any Transport, clock: any Clock<Duration>) {
        webservice = Webservice(transport: transport)
        loadingClock = clock
    }

    func configure(value: Episode) {
        configured.append(value.title)
    }
}

@MainActor
@Suite("Freshness and revalidation of loaded content", .timeLimit(.minutes(1)))
struct FreshnessTests {
    let mock = MockTransport()
    let clock = ManualClock()
    let pilot = Episode(id: 1, title: "Pilot")

    @Test("content younger than max-age is not reloaded; older is reloaded in the background")
    func maxAge() async throws {
        mock.respond(to: "/episodes/1", with: .json(pilot))
        let screen = FreshScreen(transport: mock, clock: clock)
        await screen.load(resource: Episode.resource(id: 1))
        #expect(screen.loadingState.loadedAt == clock.now)
        clock.advance(by: .seconds(59))
        await screen.load(resource: Episode.resource(id: 1))
        #expect(mock.requests.count == 1)

        clock.advance(by: .seconds(1))
        let gate = MockTransport.Gate()
        mock.respond(to: "/episodes/1", with: .json(Episode(id: 1, title: "Fresh")), after: gate)
        let task = screen.startLoading(resource: Episode.resource(id: 1))
        await gate.waitForArrivals()
        #expect(screen.loadingState.activity == .reloading)
        #expect(screen.loadingState.placeholder == .content)
        gate.open()
        await task.finish()
        #expect(screen.configured == ["Pilot", "Fresh"])
        #expect(screen.loadingState.loadedAt == clock.now)
    }

    @Test("freshness is kept on any Clock<Duration>, one with instants of its own too")
    func maxAgeOnAnyClock() async throws {
        mock.respond(to: "/episodes/1", with: .json(pilot))
        mock.respond(to: "/episodes/1", with: .json(Episode(id: 1, title: "Fresh")))
        let stepping = SteppingClock()
        let screen = FreshScreen(transport: mock, clock: stepping)
        await screen.load(resource: Episode.resource(id: 1))
        let loadedAt = try #require(screen.loadingState.loadedAt)
        stepping.advance(by: .seconds(59))
        await screen.load(resource: Episode.resource(id: 1))
        #expect(mock.requests.count == 1)
        stepping.advance(by: .seconds(2))
        await screen.load(resource: Episode.resource(id: 1))
        #expect(screen.configured == ["Pilot", "Fresh"])
        #expect(loadedAt.duration(to: try #require(screen.loadingState.loadedAt)) == .seconds(61))
    }

    @Test("after a failure, ifNeeded waits the retry interval")
    func failureRetryInterval() async throws {
        mock.fail("/episodes/1", with: URLError(.notConnectedToInternet))
        let screen = FreshScreen(transport: mock, clock: clock)
        await screen.load(resource: Episode.resource(id: 1))
        #expect(screen.loadingState.failedAt == clock.now)
        clock.advance(by: .seconds(9))
        await screen.load(resource: Episode.resource(id: 1))
        #expect(mock.requests.count == 1)
        clock.advance(by: .seconds(1))
        mock.respond(to: "/episodes/1", with: .json(pilot))
        await screen.load(resource: Episode.resource(id: 1))
        #expect(screen.loadingState.content == pilot)
        #expect(screen.loadingState.failedAt == nil)
    }

    @Test("a 304 keeps the value, records the load time and does not configure again")
    func notModifiedKeepsValue() async throws {
        mock.respond(to: "/episodes/1", with: .json(pilot, headers: ["ETag": #""v1""#]))
        mock.respond(to: "/episodes/1", with: .status(304))
        let screen = FreshScreen(transport: mock, clock: clock)
        await screen.load(resource: Episode.resource(id: 1))
        clock.advance(by: .seconds(120))
        await screen.load(resource: Episode.resource(id: 1))
        #expect(mock.requests[1].value(forHTTPHeaderField: "If-None-Match") == #""v1""#)
        #expect(screen.configured == ["Pilot"])
        #expect(screen.loadingState.content == pilot)
        #expect(screen.loadingState.loadedAt == clock.now)
        #expect(screen.loadingState.activity == .idle)
    }

    @Test("a screen holding older content applies the newer stored value on 304")
    func notModifiedForAnotherScreensValue() async throws {
        let webservice = Webservice(transport: mock)
        let older = SharedScreen(webservice: webservice)
        let newer = SharedScreen(webservice: webservice)
        mock.respond(to: "/episodes/1", with: .json(pilot, headers: ["ETag": #""v1""#]))
        mock.respond(
            to: "/episodes/1",
            with: .json(Episode(id: 1, title: "Recut"), headers: ["ETag": #""v2""#])
        )
        mock.respond(to: "/episodes/1", with: .status(304))
        await older.load(resource: Episode.resource(id: 1))
        await newer.load(resource: Episode.resource(id: 1))
        await older.load(resource: Episode.resource(id: 1), policy: .force)
        #expect(older.configured == ["Pilot", "Recut"])
    }

    @Test("ignoringCache reloads in full")
    func ignoringCache() async throws {
        mock.respond(to: "/episodes/1", with: .json(pilot, headers: ["ETag": #""v1""#]))
        mock.respond(to: "/episodes/1", with: .json(pilot, headers: ["ETag": #""v1""#]))
        let screen = FreshScreen(transport: mock, clock: clock)
        await screen.load(resource: Episode.resource(id: 1))
        await screen.load(resource: Episode.resource(id: 1), policy: .force.ignoringCache)
        #expect(mock.requests[1].value(forHTTPHeaderField: "If-None-Match") == nil)
        #expect(screen.configured == ["Pilot", "Pilot"])
    }
}

/// Two of these share one webservice.
@MainActor
final class SharedScreen: Loading {
    let loading = LoadingCore<Episode>()
    let webservice: Webservice
    private(set) var configured: [String] = []

    init(webservice: Webservice) {
        self.webservice = webservice
    }

    func configure(value: Episode) {
        configured.append(value.title)
    }
}
