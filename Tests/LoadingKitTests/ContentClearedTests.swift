import Foundation
import LoadingKit
import LoadingKitNetworking
import LoadingKitTesting
import Testing

/// A screen that keeps a field of its own, set by `configure(value:)`: it hears when
/// the content is cleared, so a failed load of another resource shows no old title.
@MainActor
private final class TitleScreen: Loading {
    let loading = LoadingCore<Post>()
    let webservice: Webservice
    private(set) var title = ""
    private(set) var clearings = 0

    init(webservice: Webservice) {
        self.webservice = webservice
    }

    func configure(value: Post) {
        title = value.title
    }

    func contentWasCleared() {
        clearings += 1
        title = ""
    }

    /// A post titled "Refused" is not shown.
    func validate(_ value: Post) throws {
        if value.title == "Refused" { throw URLError(.cannotDecodeContentData) }
    }
}

@MainActor
@Suite("Telling a screen its content was cleared", .timeLimit(.minutes(1)))
struct ContentClearedTests {
    let server: LoopbackServer

    init() throws {
        server = try LoopbackServer()
        server.route("/posts/1") { _ in .json(Post(id: 1, title: "First")) }
        server.route("/posts/2") { _ in .status(500) }
    }

    private func screen() async -> TitleScreen {
        let screen = TitleScreen(webservice: Webservice(transport: URLSessionTransport()))
        await screen.load(resource: Resource<Post>(url: server.url("/posts/1")))
        return screen
    }

    @Test("a load of another resource that fails leaves no field of the old content")
    func failedLoadOfAnother() async {
        let screen = await screen()
        #expect(screen.title == "First")
        await screen.load(resource: Resource<Post>(url: server.url("/posts/2")))
        #expect(screen.loadingState.content == nil)
        #expect(screen.loadingState.error != nil)
        #expect(screen.title == "")
        #expect(screen.clearings == 1)
    }

    @Test("a stored value of another resource that the screen refuses clears what the old one set")
    func refusedStoredValue() async throws {
        let mock = MockTransport()
        mock.respond(to: "/posts/1", with: .json(Post(id: 1, title: "First")))
        mock.respond(to: "/posts/3", with: .json(Post(id: 3, title: "Refused")))
        mock.respond(to: "/posts/3", with: .status(500))
        let webservice = Webservice(transport: mock)
        _ = try await webservice.load(Post.resource(id: 3))
        let screen = TitleScreen(webservice: webservice)
        await screen.load(resource: Post.resource(id: 1))
        #expect(screen.title == "First")

        await screen.load(resource: Post.resource(id: 3), policy: .force)

        #expect(screen.loadingState.content == nil)
        #expect(screen.title == "")
        #expect(screen.clearings == 1)
    }

    @Test("following a live value after a load clears what the loaded content set")
    func followAfterLoad() async throws {
        let mock = MockTransport()
        let body = StreamedBody()
        mock.respond(to: "/posts/1", with: .json(Post(id: 1, title: "First")))
        mock.respond(to: "/live", with: .eventStream(body))
        let screen = TitleScreen(webservice: Webservice(transport: mock))
        await screen.load(resource: Post.resource(id: 1))
        #expect(screen.title == "First")

        screen.follow(
            LiveResource<ServerSentEvent>(url: URL(string: "https://api.example.com/live")!),
            startingWith: Post(id: 1, title: "")
        ) { post, event in post = Post(id: 1, title: event.data) }

        #expect(screen.title == "")
        #expect(screen.clearings == 1)
        body.send("data: Live\n\n")
        for await state in screen.states where state.content?.title == "Live" { break }
        #expect(screen.title == "Live")
        screen.stopFollowing()
    }

    @Test("a reset clears, a reload of the same resource and keeping the previous content do not")
    func whenCleared() async {
        let screen = await screen()
        await screen.reload()
        #expect(screen.clearings == 0)
        await screen.load(
            resource: Resource<Post>(url: server.url("/posts/2")),
            policy: .ifNeeded.keepingPreviousContent
        )
        #expect(screen.clearings == 0)
        #expect(screen.title == "First")
        screen.resetLoading()
        #expect(screen.clearings == 1)
        #expect(screen.title == "")
        // Nothing shown: nothing to clear.
        screen.resetLoading()
        #expect(screen.clearings == 1)
    }
}
