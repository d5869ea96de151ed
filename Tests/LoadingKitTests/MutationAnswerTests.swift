import Foundation
import LoadingKit
import LoadingKitTesting
import Testing

/// A mutation's answer is the new value of what it names: stored, and shown on every
/// screen showing it, with no second request.
@MainActor
@Suite("Mutation answers update the store", .timeLimit(.minutes(1)))
struct MutationAnswerTests {
    let mock = MockTransport()
    let posts = Resource<[Post]>(url: Post.baseURL.appending(path: "posts"))

    @Test("a PATCH's answer is shown on every screen of the post and in list rows, with no GET")
    func patchAnswerEverywhere() async throws {
        let webservice = Webservice(transport: mock)
        mock.respond(to: "/posts/3", with: .json(Post(3)))
        mock.respond(to: "/posts", with: .json(Post.list([3, 2, 1])))
        let first = DetailScreen(webservice: webservice)
        let second = DetailScreen(webservice: webservice)
        let list = PostsScreen(webservice: webservice)
        await first.load(resource: Post.resource(id: 3))
        await second.load(resource: Post.resource(id: 3))
        await list.load(resource: posts.storingElements(as: { Post.resource(id: $0.id) }))
        mock.respond(
            to: "/posts/3",
            method: .patch,
            with: .json(Post(id: 3, title: "Renamed by the server"))
        )

        let saved = try await first.send(
            Post.rename(id: 3, to: "Renamed").storingAnswer(as: Post.resource(id: 3))
        )

        #expect(saved.title == "Renamed by the server")
        #expect(first.titles.last == "Renamed by the server")
        #expect(second.titles.last == "Renamed by the server")
        #expect(list.loadingState.content?.first?.title == "Renamed by the server")
        #expect(mock.requestCount(for: "/posts/3") == 1)
        #expect(mock.requestCount(for: "/posts") == 1)
        #expect(webservice.storedValue(for: Post.resource(id: 3))?.isStale == false)
    }

    @Test("a POST's answer is merged into the stored list, shown on every screen, with no GET")
    func postAnswerMerged() async throws {
        let webservice = Webservice(transport: mock)
        mock.respond(to: "/posts", with: .json(Post.list([2, 1])))
        let first = PostsScreen(webservice: webservice)
        let second = PostsScreen(webservice: webservice)
        await first.load(resource: posts)
        await second.load(resource: posts)
        mock.respond(to: "/posts", method: .post, with: .json(Post(id: 3, title: "New")))
        let create = try Mutation(
            Resource<Post>(
                url: Post.baseURL.appending(path: "posts"),
                body: Post(id: 0, title: "New")
            )
        )
        .mergingAnswer(into: posts) { posts, created in posts.insert(created, at: 0) }

        _ = try await first.send(create)

        #expect(first.configured.last == [3, 2, 1])
        #expect(second.configured.last == [3, 2, 1])
        #expect(mock.requestCount(for: "/posts") == 1)
    }

    @Test("an optimistic change gives way to the answer in one step: nothing shown between")
    func optimisticThenAnswer() async throws {
        let webservice = Webservice(transport: mock)
        mock.respond(to: "/posts/3", with: .json(Post(3)))
        let detail = DetailScreen(webservice: webservice)
        await detail.load(resource: Post.resource(id: 3))
        mock.respond(to: "/posts/3", method: .patch, with: .json(Post(id: 3, title: "Saved")))
        let mutation = try Post.rename(id: 3, to: "Saving")
            .optimistically(updating: Post.resource(id: 3)) { $0 = Post(id: 3, title: "Saving") }
            .storingAnswer(as: Post.resource(id: 3))

        _ = try await detail.send(mutation)

        #expect(detail.titles == ["Post 3", "Saving", "Saved"])
        #expect(webservice.storedValue(for: Post.resource(id: 3))?.hasPendingChanges == false)
        #expect(mock.requestCount(for: "/posts/3") == 1)
    }

    @Test("an answer equal to the optimistic change shown configures nothing again")
    func answerEqualToChange() async throws {
        let webservice = Webservice(transport: mock)
        mock.respond(to: "/posts/3", with: .json(Post(3)))
        let detail = DetailScreen(webservice: webservice)
        await detail.load(resource: Post.resource(id: 3))
        mock.respond(to: "/posts/3", method: .patch, with: .json(Post(id: 3, title: "Saved")))
        let mutation = try Post.rename(id: 3, to: "Saved")
            .optimistically(updating: Post.resource(id: 3)) { $0 = Post(id: 3, title: "Saved") }
            .storingAnswer(as: Post.resource(id: 3))

        _ = try await detail.send(mutation)

        #expect(detail.titles == ["Post 3", "Saved"])
    }

    @Test("overlapping writes whose answers equal what is shown configure each value once")
    func overlappingAnswersEqualToShown() async throws {
        let webservice = Webservice(transport: mock)
        mock.respond(to: "/posts/3", with: .json(Post(3)))
        let detail = DetailScreen(webservice: webservice)
        await detail.load(resource: Post.resource(id: 3))
        // The answers come in the order the writes were sent.
        let (firstGate, secondGate) = (MockTransport.Gate(), MockTransport.Gate())
        let answerA = MockResponse.json(Post(id: 3, title: "A"))
        let answerB = MockResponse.json(Post(id: 3, title: "B"))
        mock.respond(to: "/posts/3", method: .patch, with: answerA, after: firstGate)
        mock.respond(to: "/posts/3", method: .patch, with: answerB, after: secondGate)
        mock.respond(to: "/posts/3", with: .json(Post(id: 3, title: "B")))
        func rename(to title: String) throws -> Mutation<Post> {
            try Post.rename(id: 3, to: title)
                .optimistically(updating: Post.resource(id: 3)) { $0 = Post(id: 3, title: title) }
                .storingAnswer(as: Post.resource(id: 3))
        }

        // Unscoped writes run side by side: the second is sent once the first is held,
        // so that each request takes its own gate.
        let first = detail.startSending(try rename(to: "A")) { _ in }
        await firstGate.waitForArrivals()
        let second = detail.startSending(try rename(to: "B")) { _ in }
        firstGate.open()
        await first.finish()
        await secondGate.waitForArrivals()
        secondGate.open()
        await second.finish()

        #expect(detail.titles == ["Post 3", "A", "B"])
    }

    @Test("a failed mutation stores no answer and takes its change back")
    func failureStoresNothing() async throws {
        let webservice = Webservice(transport: mock)
        mock.respond(to: "/posts/3", with: .json(Post(3)))
        let detail = DetailScreen(webservice: webservice)
        await detail.load(resource: Post.resource(id: 3))
        mock.respond(to: "/posts/3", method: .patch, with: .status(409))
        let mutation = try Post.rename(id: 3, to: "Saving")
            .optimistically(updating: Post.resource(id: 3)) { $0 = Post(id: 3, title: "Saving") }
            .storingAnswer(as: Post.resource(id: 3))

        await #expect(throws: LoadingError.self) { try await detail.send(mutation) }

        #expect(detail.titles == ["Post 3", "Saving", "Post 3"])
        #expect(webservice.storedValue(for: Post.resource(id: 3))?.value == Post(3))
    }

    @Test("an answer stored for a resource nobody loaded opens a later screen without a request")
    func answerForALaterScreen() async throws {
        let webservice = Webservice(transport: mock)
        mock.respond(to: "/posts/7", method: .patch, with: .json(Post(id: 7, title: "Saved")))

        _ = try await webservice.send(
            Post.rename(id: 7, to: "Saved").storingAnswer(as: Post.resource(id: 7))
        )
        let detail = DetailScreen(webservice: webservice)
        await detail.load(resource: Post.resource(id: 7))

        #expect(detail.titles == ["Saved"])
        #expect(mock.requestCount(for: "/posts/7") == 0)
    }

    @Test("resources that each make their own snake_case decoder are one: a like shows at the tap")
    func decoderMadePerCallIsOneResource() async throws {
        let server = try LoopbackServer()
        let likes = Locked(10)
        let snakeCase = JSONEncoder()
        snakeCase.keyEncodingStrategy = .convertToSnakeCase
        server.route("/posts/1") { _ in
            .json(Liked(likeCount: likes.withLock { $0 }), encoder: snakeCase)
        }
        server.route("/posts/1/like", method: .post) { _ in
            .json(
                Liked(
                    likeCount: likes.withLock {
                        $0 += 1
                        return $0
                    }
                ),
                encoder: snakeCase
            )
        }
        // A decoder made per call, as a newcomer writes it.
        func snakeDecoder() -> JSONDecoder {
            let decoder = JSONDecoder()
            decoder.keyDecodingStrategy = .convertFromSnakeCase
            return decoder
        }
        func post() -> Resource<Liked> {
            Resource(url: server.url("/posts/1"), decoder: snakeDecoder())
        }
        let webservice = Webservice(transport: URLSessionTransport())
        let screen = LikedScreen(webservice: webservice)
        await screen.load(resource: post())
        let like = Mutation(
            Resource<Liked>(
                url: server.url("/posts/1/like"),
                method: .post,
                decoder: snakeDecoder()
            )
        )
        .optimistically(updating: post()) { $0.likeCount += 1 }
        .storingAnswer(as: post())

        let saving: MutationTask<Liked> = screen.startSending(like)
        #expect(screen.counts == [10, 11])
        await saving.finish()

        #expect(saving.value?.likeCount == 11)
        #expect(screen.counts == [10, 11])
        #expect(webservice.storedValue(for: post())?.value.likeCount == 11)
    }
}

/// A post's like count, sent as `like_count`.
private struct Liked: Codable, Equatable, Sendable {
    var likeCount: Int
}

/// A screen of one post's like count, each count configured in order.
@MainActor
private final class LikedScreen: Loading {
    let loading = LoadingCore<Liked>()
    let webservice: Webservice
    private(set) var counts: [Int] = []

    init(webservice: Webservice) {
        self.webservice = webservice
    }

    func configure(value: Liked) {
        counts.append(value.likeCount)
    }
}
