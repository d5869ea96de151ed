import Foundation
import LoadingKit
import LoadingKitNetworking
import LoadingKitTesting
import Testing

@MainActor
@Suite("PullToRefresh", .timeLimit(.minutes(1)))
struct PullToRefreshTests {
    /// Records every call.
    final class Indicator: PullToRefreshIndicating {
        var events: [String] = []
        func update(progress: Double, beyondThreshold: Bool) {
            events.append("update \(progress) \(beyondThreshold)")
        }
        func startAnimating() { events.append("start") }
        func stopAnimating() { events.append("stop") }
    }

    /// A refresh the test finishes.
    @MainActor
    final class HeldRefresh {
        private let starts = CounterSignal()
        private let finished = OneShot<Void>()
        var started: Int { starts.value }
        func run() async {
            starts.increment()
            await finished.wait()
        }
        func waitUntilStarted() async {
            await starts.wait(for: 1)
        }
        func finish() {
            finished.fire(())
        }
    }

    let indicator = Indicator()
    let held = HeldRefresh()

    func makePull() -> PullToRefresh {
        PullToRefresh(threshold: 60, indicator: indicator) { [held] in await held.run() }
    }

    @Test("pulling reports progress and whether the threshold is passed")
    func pulling() {
        let pull = makePull()
        pull.pulled(to: 30)
        #expect(pull.phase == .pulling)
        #expect(pull.progress == 0.5)
        pull.pulled(to: 90)
        #expect(pull.phase == .armed)
        #expect(pull.isBeyondThreshold)
        #expect(pull.progress == 1)
        pull.pulled(to: 95)
        pull.pulled(to: 0)
        #expect(pull.phase == .idle)
        #expect(indicator.events == ["update 0.5 false", "update 1.0 true", "update 0.0 false"])
        #expect(pull.contentInset == 0)
    }

    @Test("releasing below the threshold just hides")
    func releaseBelowThreshold() {
        let pull = makePull()
        pull.pulled(to: 40)
        #expect(pull.released() == nil)
        #expect(pull.phase == .idle)
        #expect(pull.progress == 0)
        #expect(held.started == 0)
        #expect(!indicator.events.contains("start"))
    }

    @Test("releasing beyond the threshold refreshes; the indicator stays until it ends")
    func releaseBeyondThreshold() async throws {
        let pull = makePull()
        pull.pulled(to: 70)
        let task = try #require(pull.released())
        #expect(pull.phase == .refreshing)
        #expect(pull.contentInset == 60)
        #expect(indicator.events.last == "start")
        await held.waitUntilStarted()
        pull.pulled(to: 0)
        #expect(pull.phase == .refreshing)
        pull.pulled(to: 80)
        #expect(pull.released() == nil)
        #expect(held.started == 1)
        #expect(!indicator.events.contains("stop"))
        held.finish()
        await task.valuePropagatingCancellation
        #expect(pull.phase == .idle)
        #expect(pull.contentInset == 0)
        #expect(Array(indicator.events.suffix(2)) == ["stop", "update 0.0 false"])
    }

    @Test("a refreshable target is refreshed and released normally")
    func refreshingTarget() async throws {
        let mock = MockTransportForPull.make()
        let feed = FeedScreen(transport: mock)
        let pull = PullToRefresh(threshold: 50, indicator: indicator, refreshing: feed)
        pull.pulled(to: 50)
        await pull.released()?.value
        #expect(feed.ids == [1])
        #expect(indicator.events.filter { $0 == "start" || $0 == "stop" } == ["start", "stop"])
    }

    @Test("a released pull shows its target refreshing in the same turn")
    func refreshingAtOnce() async throws {
        let mock = MockTransportForPull.make()
        mock.respond(to: "/posts", with: .json(Post.list([1])))
        let feed = FeedScreen(transport: mock)
        await feed.refresh()
        #expect(feed.ids == [1])
        let pull = PullToRefresh(threshold: 50, indicator: indicator, refreshing: feed)
        pull.pulled(to: 50)
        let task = try #require(pull.released())
        // A view drawn now, before any other task ran, shows the refresh.
        #expect(feed.loadingState.activity == .refreshing)
        await task.value
        #expect(feed.loadingState.activity == .idle)
        #expect(feed.loadingState.error == nil)
        #expect(pull.phase == .idle)
    }

    @Test("a failed refresh still stops the indicator")
    func failedRefreshStops() async throws {
        let mock = MockTransportForPull.failing()
        let feed = FeedScreen(transport: mock)
        let pull = PullToRefresh(threshold: 50, indicator: indicator, refreshing: feed)
        pull.pulled(to: 60)
        await pull.released()?.value
        #expect(feed.loadingState.error != nil)
        #expect(indicator.events.contains("stop"))
        #expect(pull.phase == .idle)
    }
}

enum MockTransportForPull {
    static func make() -> MockTransport {
        let mock = MockTransport()
        mock.respond(to: "/posts", with: .json(Post.list([1])))
        return mock
    }

    static func failing() -> MockTransport {
        let mock = MockTransport()
        mock.fail("/posts", with: URLError(.notConnectedToInternet))
        return mock
    }
}
