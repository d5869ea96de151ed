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
        "a save that timed out after the server applied it is taken back, marked stale and revalidated"
    )
    func timedOutSaveIsRevalidated() async throws {
        let server = try IdempotentPostServer(posts: [1])
        let clock = ManualClock()
        let applied = CounterSignal()
        let release = DispatchSemaphore(value: 0)
        server.state.withLock { state in
            state.onApplied = {
                applied.increment()
                release.wait()
            }
        }
        let webservice = Webservice(
            transport: URLSessionTransport(configuration: .init(clock: clock)),
            configuration: .init(monitor: recorder)
        )
        let post = server.resource(ofPost: 1)
        _ = try await webservice.load(post)

        // The server has applied the save when the client gives up waiting for its answer.
        let saving = Task { try await webservice.send(server.rename(1, to: "Renamed")) }
        await applied.wait(for: 1)
        clock.advance(by: .seconds(120))
        let outcome = await saving.result
        release.signal()

        #expect(outcome.isTimeout)
        let stored = webservice.storedValue(for: post)
        #expect(stored?.value.title == "Post 1")
        #expect(stored?.isStale == true)
        let screen = DetailScreen(webservice: webservice)
        await screen.load(resource: post, policy: .ifNeeded)
        #expect(screen.loadingState.content?.title == "Renamed")
        #expect(server.titles[1] == "Renamed")
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
        _ = try await saving.value
        await refreshing.value
        await screen.load(resource: server.post, policy: .force)

        #expect(server.likes == 1)
        #expect(screen.loadingState.content?.likes == 1)
        #expect(webservice.storedValue(for: server.post)?.value.likes == 1)
    }
}

extension Result<Post, any Error> {
    /// Whether the outcome is the transport's timeout.
    fileprivate var isTimeout: Bool {
        guard case .failure(WebserviceError.transport(let failure)) = self else {
            return false
        }
        return failure.code == .timedOut
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
