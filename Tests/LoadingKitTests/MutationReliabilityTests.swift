import Foundation
import LoadingKit
import LoadingKitTesting
import Testing

/// A mutation ends exactly once for whoever sent it: its completion runs whether or not
/// the task is kept, `try await screen.send(_:)` returns the answer or throws, and
/// cancelling the caller is an outcome, never a hang.
@MainActor
@Suite("Mutations you can rely on", .timeLimit(.minutes(1)))
struct MutationReliabilityTests {
    let mock = MockTransport()
    let posts = Resource<[Post]>(url: Post.baseURL.appending(path: "posts"))

    private func create(_ id: Int) throws -> Mutation<Post> {
        try Mutation(Resource<Post>(url: Post.baseURL.appending(path: "posts"), body: Post(id)))
            .optimistically(updating: posts) { $0.insert(Post(id), at: 0) }
    }

    /// A screen showing `[1]`.
    private func screen(on webservice: Webservice) async -> PostsScreen {
        mock.respond(to: "/posts", with: .json(Post.list([1])))
        let screen = PostsScreen(webservice: webservice)
        await screen.load(resource: posts)
        return screen
    }

    @Test("a completion runs once when nobody keeps the task, on success and on failure")
    func completionWithoutTheTask() async throws {
        let screen = await screen(on: Webservice(transport: mock))
        mock.respond(to: "/posts", method: .post, with: .json(Post(2)))
        mock.respond(to: "/posts", method: .post, with: .status(500))
        mock.respond(to: "/posts", with: .json(Post.list([2, 1])))

        let (first, second) = (try create(2), try create(3))

        let saved = await callback { reply in screen.startSending(first) { reply($0.value) } }
        let failed = await callback { reply in screen.startSending(second) { reply($0.error) } }

        #expect(saved == Post(2))
        #expect(failed??.description.contains("500") == true)
    }

    @Test("a completion runs exactly once, however long the screen and the task live")
    func completionExactlyOnce() async throws {
        var screen: PostsScreen? = await screen(on: Webservice(transport: mock))
        let gate = MockTransport.Gate()
        mock.respond(to: "/posts", method: .post, with: .json(Post(2)), after: gate)
        mock.respond(to: "/posts", with: .json(Post.list([2, 1])))
        let mutation = try create(2)

        await confirmation(expectedCount: 1) { completed in
            await callback { reply in
                screen?.startSending(mutation) { saving in
                    #expect(saving.value == Post(2))
                    completed()
                    reply(())
                }
                screen = nil
                gate.open()
            }
        }
    }

    @Test("try await send returns the server's answer, with the change on the screen")
    func awaitingTheAnswer() async throws {
        let screen = await screen(on: Webservice(transport: mock))
        mock.respond(to: "/posts", method: .post, with: .json(Post(id: 2, title: "Saved")))
        mock.respond(to: "/posts", with: .json(Post.list([2, 1])))

        let saved = try await screen.send(create(2))

        #expect(saved == Post(id: 2, title: "Saved"))
        #expect(screen.ids == [2, 1])
    }

    @Test("try await send throws the failure, and the screen keeps its content without the change")
    func awaitingAFailure() async throws {
        let screen = await screen(on: Webservice(transport: mock))
        mock.respond(to: "/posts", method: .post, with: .status(422))

        await #expect {
            try await screen.send(create(2))
        } throws: { error in
            guard case .webservice(.badStatus(let failure)) = error as? LoadingError else {
                return false
            }
            return failure.statusCode == 422
        }
        #expect(screen.ids == [1])
        #expect(screen.failures.isEmpty)
    }

    @Test("cancelling the caller cancels the mutation: it throws cancelled and its change goes")
    func cancellingTheCaller() async throws {
        let screen = await screen(on: Webservice(transport: mock))
        let gate = MockTransport.Gate()
        mock.respond(to: "/posts", method: .post, with: .json(Post(2)), after: gate)
        mock.respond(to: "/posts", with: .json(Post.list([1])))

        let saving = Task { try await screen.send(create(2)) }
        await gate.waitForArrivals()
        #expect(screen.ids == [2, 1])
        saving.cancel()
        await gate.waitForCancellations()

        await #expect {
            try await saving.valuePropagatingCancellation
        } throws: { error in
            if case .webservice(.cancelled) = error as? LoadingError { return true }
            return false
        }
        for await state in screen.states where state.content?.map(\.id) == [1] { break }
    }
}
