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
