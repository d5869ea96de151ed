import Foundation
import LoadingKit
import LoadingKitTesting
import Testing

/// A caller cancelled while it waits for a task of the kit returns at once — as a test
/// does when its time limit passes — and the work it waited for goes on.
@MainActor
@Suite("A cancelled wait", .timeLimit(.minutes(1)))
struct CancelledWaitTests {
    let mock = MockTransport()

    private var webservice: Webservice { Webservice(transport: mock) }

    @Test("waiting for a mutation whose request never answers ends when the waiter is cancelled")
    func mutationFinish() async throws {
        let gate = MockTransport.Gate()
        mock.respond(to: "/posts/3", method: .patch, with: .json(Post(3)), after: gate)
        let screen = DetailScreen(webservice: webservice)
        let saving: MutationTask<Post> = screen.startSending(try Post.rename(id: 3, to: "A"))
        await gate.waitForArrivals()

        let waiter = Task { await saving.finish() }
        waiter.cancel()
        await waiter.valuePropagatingCancellation

        #expect(saving.isInFlight)
        gate.open()
        await saving.finish()
        #expect(saving.value == Post(3))
    }

    @Test("waiting for a load whose request never answers ends when the waiter is cancelled")
    func loadFinish() async throws {
        let gate = MockTransport.Gate()
        mock.respond(to: "/posts/3", with: .json(Post(3)), after: gate)
        let screen = DetailScreen(webservice: webservice)
        let loading = screen.startLoading(resource: Post.resource(id: 3))
        await gate.waitForArrivals()

        let waiter = Task { await loading.finish() }
        waiter.cancel()
        await waiter.valuePropagatingCancellation

        #expect(!loading.isCancelled)
        #expect(screen.titles.isEmpty)
        gate.open()
        await loading.finish()
        #expect(screen.titles == [Post(3).title])
    }
}
