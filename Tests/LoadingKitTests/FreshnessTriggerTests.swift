import Dispatch
import Foundation
import LoadingKit
import LoadingKitNetworking
import LoadingKitTesting
import Testing

/// Screens that stay on screen stay fresh on their own: revalidated every interval
/// while they live and show, on their clock, with no timer when nothing shows them;
/// and all at once, one request per resource, when the app says it is active again or
/// the network came back. Over real `URLSession` against a loopback server.
@MainActor
@Suite("Freshness triggers", .timeLimit(.minutes(1)))
struct FreshnessTriggerTests {
    let server: LoopbackServer
    let latest = Locked(1)
    let clock = ManualClock()
    let recorder = EventRecorder()
    let webservice: Webservice

    init() throws {
        webservice = Webservice(
            transport: URLSessionTransport(),
            configuration: .init(monitor: recorder)
        )
        server = try LoopbackServer()
        server.route("/posts") { [latest] _ in .json(Post.list([latest.withLock { $0 }])) }
        server.route("/other") { _ in .json(Post.list([9])) }
    }

    private var posts: Resource<[Post]> { Resource(url: server.url("/posts")) }

    private func screen(_ resource: Resource<[Post]>? = nil) async -> PostsScreen {
        let screen = PostsScreen(webservice: webservice, clock: clock)
        await screen.load(resource: resource ?? posts)
        return screen
    }

    /// Returns once `screen` shows `ids`.
    private func waitUntil(_ screen: PostsScreen, shows ids: [Int]) async {
        for await state in screen.states where state.content?.map(\.id) == ids && !state.isLoading {
            return
        }
    }

    @Test("a screen with an interval is revalidated every interval on its clock")
    func revalidatedEveryInterval() async throws {
        let screen = PostsScreen(webservice: webservice, clock: clock)
        screen.revalidationInterval = .seconds(30)
        #expect(clock.sleeperCount == 0)  // nothing loaded: no timer
        await screen.load(resource: posts)
        await clock.waitForSleepers(1)
        latest.withLock { $0 = 2 }

        clock.advance(by: .seconds(30))
        await waitUntil(screen, shows: [2])
        await clock.waitForSleepers(2)  // sleeps counted since the clock was made
        latest.withLock { $0 = 3 }
        clock.advance(by: .seconds(30))
        await waitUntil(screen, shows: [3])

        #expect(server.requestCount(for: "/posts") == 3)
    }

    @Test("screens showing one resource keep their timers: each interval, every one is revalidated")
    func screensOfOneResourcePoll() async throws {
        // Each interval's answer is held until all three polls have it: one request,
        // which two of them join. (Were it answered and stored between a poll's look at
        // the store and its request, that poll would send a second one: the test of a
        // stored answer shown by a poll is the next one.)
        let release = DispatchSemaphore(value: 0)
        let holds = Locked(false)
        defer { release.signal() }  // the server's thread never stays held
        server.route("/posts") { [latest] _ in
            if holds.withLock({ $0 }) {
                release.wait()
            }
            return .json(Post.list([latest.withLock { $0 }]))
        }
        var screens: [PostsScreen] = []
        for _ in 0..<3 {
            let screen = PostsScreen(webservice: webservice, clock: clock)
            screen.revalidationInterval = .seconds(30)
            await screen.load(resource: posts)
            screens.append(screen)
        }
        await clock.waitForSleepers(3)
        holds.withLock { $0 = true }
        for interval in 1...3 {
            let before = server.requestCount(for: "/posts")
            latest.withLock { $0 = interval + 1 }
            clock.advance(by: .seconds(30))
            await recorder.waitForEvents(2 * interval) { $0.kind == .coalesced }
            release.signal()
            // Every screen waits again: its poll has run.
            await clock.waitUntilSleeping(3)
            #expect(
                server.requestCount(for: "/posts") - before == 1,
                "interval \(interval):\n\(recorder.lines.joined(separator: "\n"))"
            )
            for screen in screens {
                await waitUntil(screen, shows: [interval + 1])
            }
        }
    }

    @Test("a polled screen shows an answer stored by a request it did not send, and sends none")
    func pollShowsAnswerStoredButNotApplied() async throws {
        let screen = await screen()
        screen.revalidationInterval = .seconds(30)
        await screen.load(resource: posts, policy: .force)
        await clock.waitForSleepers(1)
        latest.withLock { $0 = 2 }
        // A screen's request that ended: its answer is stored, and the screen that sent
        // it has not applied it yet, so nobody was told.
        _ = try await webservice.fetch(posts, notifies: false)
        #expect(screen.loadingState.content?.map(\.id) == [1])

        clock.advance(by: .seconds(30))
        await clock.waitForSleepers(2)  // sleeps counted since the clock was made
        #expect(screen.loadingState.content?.map(\.id) == [2])
        #expect(server.requestCount(for: "/posts") == 3)
    }

    @Test("a screen another screen's unchanged answer confirmed waits a whole interval from it")
    func unchangedAnswerConfirmsOtherScreens() async throws {
        let first = PostsScreen(webservice: webservice, clock: clock)
        first.revalidationInterval = .seconds(30)
        await first.load(resource: posts)
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(10))
        let second = PostsScreen(webservice: webservice, clock: clock)
        second.revalidationInterval = .seconds(30)
        second.maxAge = .seconds(60)
        await second.load(resource: posts)  // the stored value, fresh: no request
        await clock.waitForSleepers(2)
        #expect(server.requestCount(for: "/posts") == 1)

        clock.advance(by: .seconds(20))  // the first revalidates: the same answer
        await clock.waitForSleepers(3)
        clock.advance(by: .seconds(10))  // the second's interval ends 10 s after it
        await clock.waitForSleepers(4)
        #expect(server.requestCount(for: "/posts") == 2)
        #expect(second.ids == [1])
    }

    @Test("no timer runs for a screen that disappeared or was released")
    func noTimerWhenNothingShowsIt() async throws {
        var screen: PostsScreen? = await screen()
        screen?.revalidationInterval = .seconds(30)
        await screen?.load(resource: posts, policy: .force)
        await clock.waitForSleepers(1)

        screen?.loadingDidDisappear()
        #expect(clock.sleeperCount == 0)
        // A load that ends while the view is gone starts no timer either.
        await screen?.load(resource: posts, policy: .force)
        #expect(clock.sleeperCount == 0)
        screen?.loadingDidAppear()
        await clock.waitForSleepers(2)  // sleeps counted since the clock was made
        #expect(clock.sleeperCount == 1)
        screen = nil
        #expect(clock.sleeperCount == 0)
        #expect(server.requestCount(for: "/posts") == 3)
    }

    @Test(
        "the app becoming active revalidates each stale resource once, whatever the number of screens, and leaves fresh ones"
    )
    func staleScreensAreRevalidatedOnce() async throws {
        let (first, second) = (await screen(), await screen())
        first.maxAge = .seconds(10)
        second.maxAge = .seconds(10)
        let fresh = await screen(Resource(url: server.url("/other")))
        fresh.maxAge = .seconds(3_600)
        clock.advance(by: .seconds(20))
        latest.withLock { $0 = 2 }

        webservice.revalidateStaleScreens()
        await waitUntil(first, shows: [2])
        await waitUntil(second, shows: [2])

        #expect(server.requestCount(for: "/posts") == 2)
        #expect(server.requestCount(for: "/other") == 1)
    }
}
