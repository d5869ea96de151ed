import Foundation
import LoadingKit
import LoadingKitNetworking
import LoadingKitTesting
import Testing

/// An answer equal to the value shown is not new content: no screen is configured
/// again and no other screen is told, while the value counts as fresh. Over real
/// `URLSession` against a loopback server.
@MainActor
@Suite("An identical answer changes nothing", .timeLimit(.minutes(1)))
struct StructuralSharingTests {
    let server: LoopbackServer
    let answer = Locked(Post.list([1, 2]))

    init() throws {
        server = try LoopbackServer()
        server.route("/posts") { [answer] _ in .json(answer.withLock { $0 }) }
    }

    /// Two screens of one webservice showing the posts, and the posts' resource.
    private func twoScreens() async -> (Webservice, Resource<[Post]>, PostsScreen, PostsScreen) {
        let webservice = Webservice(transport: URLSessionTransport())
        let posts = Resource<[Post]>(url: server.url("/posts"))
        let (list, other) = (
            PostsScreen(webservice: webservice), PostsScreen(webservice: webservice)
        )
        await list.load(resource: posts)
        await other.load(resource: posts)
        return (webservice, posts, list, other)
    }

    @Test("a 200 equal to the value shown configures no screen, tells no other, and is fresh")
    func identicalAnswer() async throws {
        let (webservice, posts, list, other) = await twoScreens()
        let (loadedAt, otherChanges) = (list.loadingState.loadedAt, other.stateChanges)

        await list.load(resource: posts, policy: .force)

        #expect(server.requestCount(for: "/posts") == 2)  // the other screen took the stored one
        #expect(list.configured == [[1, 2]])
        #expect(other.configured == [[1, 2]])
        #expect(other.stateChanges == otherChanges)
        #expect(try #require(list.loadingState.loadedAt) > #require(loadedAt))
        #expect(webservice.storedValue(for: posts)?.isStale == false)
    }

    @Test("a 200 that differs is new content on every screen showing it")
    func changedAnswer() async throws {
        let (_, posts, list, other) = await twoScreens()
        answer.withLock { $0 = Post.list([3, 1, 2]) }

        await list.load(resource: posts, policy: .force)

        #expect(list.configured == [[1, 2], [3, 1, 2]])
        for await state in other.states where state.content?.count == 3 { break }
        #expect(other.configured == [[1, 2], [3, 1, 2]])
    }
}
