import Foundation
import LoadingKit
import LoadingKitTesting
import Testing

@MainActor
@Suite("Events of loaders", .timeLimit(.minutes(1)))
struct LoaderEventTests {
    let mock = MockTransport()
    let recorder = EventRecorder()
    let posts = Resource<[Post]>(url: Post.baseURL.appending(path: "posts"))
    let others = Resource<[Post]>(url: Post.baseURL.appending(path: "others"))
    let target = "GET https://api.example.com/posts"

    var webservice: Webservice {
        Webservice(transport: mock, configuration: .init(monitor: recorder))
    }

    /// The lines the loaders said, without the webservice's.
    var loaderLines: [String] { recorder.lines.filter { $0.hasPrefix("[") } }

    @Test("a screen opening a resource says whether it was stored; a current one is skipped")
    func storeHitMissAndSkip() async {
        mock.respond(to: "/posts", with: .json(Post.list(1...3)))
        let webservice = self.webservice
        let list = PostsScreen(webservice: webservice)
        await list.load(resource: posts)
        let detail = PostsScreen(webservice: webservice)
        await detail.load(resource: posts)
        #expect(detail.ids == [1, 2, 3])
        #expect(
            loaderLines == [
                "[PostsScreen] nothing stored for \(target)",
                "[PostsScreen] stored value shown at once for \(target)",
                "[PostsScreen] skipped \(target): the content is current",
            ]
        )
        #expect(mock.requests.count == 1)
    }

    @Test("a load superseded by a newer one is reported, naming the superseded resource")
    func superseded() async {
        let gate = MockTransport.Gate()
        mock.respond(to: "/posts", with: .json(Post.list(1...3)), after: gate)
        mock.respond(to: "/others", with: .json(Post.list(4...5)))
        let screen = PostsScreen(webservice: webservice)
        let first = screen.startLoading(resource: posts)
        await gate.waitForArrivals()
        await screen.load(resource: others)
        await first.finish()
        #expect(screen.ids == [4, 5])
        #expect(
            loaderLines.contains("[PostsScreen] superseded \(target): a newer load replaces it")
        )
    }

    @Test("a cancelled load is reported by the loader, and its request by the webservice")
    func cancelled() async {
        let gate = MockTransport.Gate()
        mock.respond(to: "/posts", with: .json(Post.list(1...3)), after: gate)
        let screen = PostsScreen(webservice: webservice)
        let load = screen.startLoading(resource: posts)
        await gate.waitForArrivals()
        screen.cancelLoading()
        await load.finish()
        await recorder.waitForEvents(4)
        #expect(loaderLines.contains("[PostsScreen] ⊘ \(target) cancelled"))
        #expect(recorder.lines.contains("⊘ \(target) cancelled"))
    }
}
