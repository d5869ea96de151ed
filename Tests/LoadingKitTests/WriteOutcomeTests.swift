import Foundation
import LoadingKit
import LoadingKitNetworking
import LoadingKitTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Whatever becomes of a write, the screen ends equal to the server: a save whose
/// outcome is unknown — timed out after the server applied it — is taken back *and*
/// revalidated, and a refresh during a save never leaves the client's guess as current.
/// Over real `URLSession` against loopback servers.
@MainActor
@Suite("The screen ends equal to the server", .timeLimit(.minutes(1)))
struct WriteOutcomeTests {
    let recorder = EventRecorder()

    @Test(
        "a save that timed out after the server applied it stays shown, unconfirmed; the reload keeps it"
    )
    func timedOutSaveStaysShown() async throws {
        let server = try IdempotentPostServer(posts: [1])
        let post = server.resource(ofPost: 1)
        let save = try await SaveThatTimesOut(on: server, recorder: recorder) {
            // The server applies the save, and answers once the client gave up.
            $0.onApplied = $1
        }

        #expect(save.timedOut)
        try expectUnconfirmed(save, showing: "Renamed")
        await save.reload()
        #expect(save.webservice.storedValue(for: post)?.hasUnconfirmedChanges == false)
        #expect(save.screen.titles == ["Post 1", "Renamed"])
        #expect(server.titles[1] == "Renamed")
    }

    @Test("a save that timed out before the server applied it is taken back by the reload")
    func timedOutSaveTheServerLacksIsTakenBack() async throws {
        let server = try IdempotentPostServer(posts: [1])
        let save = try await SaveThatTimesOut(on: server, recorder: recorder) {
            // The server holds the save until the client gave up, then fails it.
            $0.refusal = 500
            $0.onPatch = $1
        }

        #expect(save.timedOut)
        try expectUnconfirmed(save, showing: "Renamed")
        await save.reload()
        #expect(save.screen.titles == ["Post 1", "Renamed", "Post 1"])
        #expect(server.titles[1] == "Post 1")
    }

    /// Expects the screen and the store to show `title`, unconfirmed and stale, and
    /// the monitor to have said so.
    private func expectUnconfirmed(_ save: SaveThatTimesOut, showing title: String) throws {
        #expect(save.screen.loadingState.content?.title == title)
        let stored = try #require(save.webservice.storedValue(for: save.post))
        #expect(stored.value.title == title)
        #expect(stored.hasUnconfirmedChanges)
        #expect(!stored.hasPendingChanges)
        #expect(stored.isStale)
        #expect(recorder.events.contains { $0.kind == .changeUnconfirmed })
    }

    @Test(
        "a save a gateway answered 502 or 504 after the server applied it is revalidated",
        arguments: [502, 504]
    )
    func gatewayFailureIsRevalidated(_ status: Int) async throws {
        let server = try IdempotentPostServer(posts: [1])
        server.state.withLock { $0.statusAfterApplying = status }
        let webservice = Webservice(transport: URLSessionTransport())
        let post = server.resource(ofPost: 1)
        _ = try await webservice.load(post)

        await #expect(throws: WebserviceError.self) {
            try await webservice.send(server.rename(1, to: "Renamed"))
        }

        #expect(webservice.storedValue(for: post)?.isStale == true)
        let screen = DetailScreen(webservice: webservice)
        await screen.load(resource: post, policy: .ifNeeded)
        #expect(screen.loadingState.content?.title == "Renamed")
    }

    @Test("a save refused with a status is taken back and stays fresh: the server said no")
    func refusedSaveStaysFresh() async throws {
        let server = try IdempotentPostServer(posts: [1])
        server.state.withLock { $0.refusal = 409 }
        let webservice = Webservice(transport: URLSessionTransport())
        let screen = DetailScreen(webservice: webservice)
        let post = server.resource(ofPost: 1)
        await screen.load(resource: post)

        await #expect(throws: LoadingError.self) {
            try await screen.send(server.rename(1, to: "Renamed"))
        }

        #expect(screen.loadingState.content?.title == "Post 1")
        #expect(webservice.storedValue(for: post)?.isStale == false)
    }

    @Test(
        "a like saved while a pull-to-refresh runs ends with the server's count, never the refreshed count plus one"
    )
    func likeDuringRefreshEndsEqualToServer() async throws {
        let server = try LikeServer()
        let webservice = Webservice(
            transport: URLSessionTransport(),
            configuration: .init(monitor: recorder)
        )
        let screen = LikesScreen(webservice: webservice)
        await screen.load(resource: server.post)

        let saving = Task { try await screen.send(server.like) }
        await server.likeArrived.wait(for: 1)
        #expect(screen.loadingState.content?.likes == 1)
        // The server has applied the like; a pull-to-refresh starts before its answer.
        let refreshing = Task { await screen.load(resource: server.post, policy: .force) }
        await recorder.waitForEvents(1) { $0.kind == .waitingForMutation }
        server.releaseLike()
        _ = try await saving.valuePropagatingCancellation
        await refreshing.valuePropagatingCancellation
        await screen.load(resource: server.post, policy: .force)

        #expect(server.likes == 1)
        #expect(screen.loadingState.content?.likes == 1)
        #expect(webservice.storedValue(for: server.post)?.value.likes == 1)
    }
}

/// Post 1 shown on a screen, renamed to "Renamed" by a save that timed out while the
/// server held its exchange (as `hold` says: given the server's state and the hook
/// that holds the exchange); the reload that follows is held until ``reload()``.
@MainActor
private struct SaveThatTimesOut {
    let webservice: Webservice
    let screen: DetailScreen
    let post: Resource<Post>
    let timedOut: Bool
    private let server: IdempotentPostServer
    private let reloads: DispatchSemaphore

    init(
        on server: IdempotentPostServer,
        recorder: EventRecorder,
        holding hold: (inout IdempotentPostServer.State, @escaping @Sendable () -> Void) -> Void
    ) async throws {
        let clock = ManualClock()
        let held = CounterSignal()
        let release = DispatchSemaphore(value: 0)
        let reloads = DispatchSemaphore(value: 0)
        webservice = Webservice(
            transport: URLSessionTransport(configuration: .init(clock: clock)),
            configuration: .init(monitor: recorder)
        )
        screen = DetailScreen(webservice: webservice)
        post = server.resource(ofPost: 1)
        await screen.load(resource: post)
        server.state.withLock { state in
            state.onGet = { reloads.wait() }
            hold(&state) {
                held.increment()
                release.wait()
            }
        }
        let saving = Task { [screen] in try await screen.send(server.rename(1, to: "Renamed")) }
        await held.wait(for: 1)
        clock.advance(by: .seconds(120))
        timedOut = await saving.result.isTimeout
        release.signal()
        self.server = server
        self.reloads = reloads
    }

    /// Lets the reload through and waits for the screen to load the post again.
    func reload() async {
        server.state.withLock { $0.onGet = nil }
        reloads.signal()
        await screen.load(resource: post, policy: .ifNeeded)
    }
}

extension Result<Post, any Error> {
    /// Whether the outcome is the transport's timeout.
    fileprivate var isTimeout: Bool {
        switch self {
        case .failure(WebserviceError.transport(let failure)),
            .failure(LoadingError.webservice(.transport(let failure))):
            failure.code == .timedOut
        default: false
        }
    }
}

/// A post with a like count, its `ETag` the count.
private struct LikedPost: Codable, Equatable, Sendable {
    var likes: Int
}

/// A screen showing a post's like count.
@MainActor
private final class LikesScreen: Loading {
    let loading = LoadingCore<LikedPost>()
    let webservice: Webservice

    init(webservice: Webservice) {
        self.webservice = webservice
    }

    func configure(value: LikedPost) {}
}

/// A loopback server of one post's likes: `GET /post` answers the count with an `ETag`
/// (and `304` when it matches); `POST /post/like` adds one, then holds its answer until
/// ``releaseLike()``.
private final class LikeServer: Sendable {
    private let count = Locked(0)
    private let release = DispatchSemaphore(value: 0)
    let likeArrived = CounterSignal()
    private let server: LoopbackServer

    init() throws {
        server = try LoopbackServer()
        let (count, release, likeArrived) = (count, release, likeArrived)
        server.route("/post") { request in
            let tag = "\"\(count.withLock { $0 })\""
            if request.header("If-None-Match") == tag { return .status(304) }
            return .json(LikedPost(likes: count.withLock { $0 }), headers: ["ETag": tag])
        }
        server.route("/post/like", method: .post) { _ in
            let likes = count.withLock { count in
                count += 1
                return count
            }
            likeArrived.increment()
            release.wait()
            return .json(LikedPost(likes: likes))
        }
    }

    var likes: Int { count.withLock { $0 } }

    var post: Resource<LikedPost> { Resource(url: server.url("/post")) }

    /// A like, adding one to the count shown at once.
    var like: Mutation<LikedPost> {
        Mutation(Resource<LikedPost>(url: server.url("/post/like"), method: .post))
            .optimistically(updating: post) { $0.likes += 1 }
    }

    func releaseLike() {
        release.signal()
    }
}
