import Foundation
import LoadingKit
import LoadingKitNetworking
import LoadingKitTesting
import Testing

/// A load of a value a mutation under way changes waits for it — its answer would not
/// say whether the server has the change — but at most the webservice's
/// `mutationWait`: a write the server does not answer holds no screen.
@MainActor
@Suite("A load behind a stuck write", .timeLimit(.minutes(1)))
struct StuckWriteTests {
    let mock = MockTransport()
    let clock = ManualClock()
    let recorder = EventRecorder()

    private func isSent(_ outcome: MutationOutcome<Post>?) -> Bool {
        if case .sent = outcome { true } else { false }
    }

    /// Scripts post 1, a rename held until the gate returned opens, and the reload's
    /// answer `reloaded`.
    private func scriptHeldRename(reloadedAs reloaded: Post) -> MockTransport.Gate {
        let gate = MockTransport.Gate()
        mock.respond(to: "/posts/1", with: .json(Post(1)))
        mock.respond(
            to: "/posts/1",
            method: .patch,
            with: .json(Post(id: 1, title: "Renamed")),
            after: gate
        )
        mock.respond(to: "/posts/1", with: .json(reloaded))
        return gate
    }

    private func renaming(to title: String) throws -> Mutation<Post> {
        try Post.rename(id: 1, to: title)
            .optimistically(updating: Post.resource(id: 1)) { $0 = Post(id: 1, title: title) }
    }

    @Test(
        "a reload behind a write the server holds goes after mutationWait, shows the change laid on the server's value, then the write's answer"
    )
    func reloadGoesAfterTheWait() async throws {
        let webservice = Webservice(
            transport: mock,
            configuration: .init(clock: clock, monitor: recorder, mutationWait: .seconds(2))
        )
        // The server has not applied it yet when the reload asks.
        let gate = scriptHeldRename(reloadedAs: Post(1))
        let screen = DetailScreen(webservice: webservice)
        await screen.load(resource: Post.resource(id: 1))
        let saving = screen.startSending(try renaming(to: "Renamed"))
        await gate.waitForArrivals()

        let reload = Task { await screen.reload() }
        await clock.waitUntilSleeping(1)
        #expect(mock.requestCount(for: "/posts/1") == 1)
        #expect(recorder.events.contains { $0.kind == .waitingForMutation })
        clock.advance(by: .seconds(2))
        await reload.value

        #expect(mock.requestCount(for: "/posts/1") == 2)
        #expect(screen.loadingState.content?.title == "Renamed")
        #expect(screen.loadingState.error == nil)
        #expect(saving.outcome == nil)

        gate.open()
        await saving.finish()
        #expect(isSent(saving.outcome))
        #expect(screen.loadingState.content?.title == "Renamed")
        #expect(webservice.storedValue(for: Post.resource(id: 1))?.value.title == "Renamed")
        #expect(webservice.storedValue(for: Post.resource(id: 1))?.hasPendingChanges == false)
    }

    @Test(
        "a write answered within mutationWait is waited for: the load sends one request, after it"
    )
    func answeredWriteIsWaitedFor() async throws {
        let webservice = Webservice(
            transport: mock,
            configuration: .init(clock: clock, mutationWait: .seconds(2))
        )
        let gate = scriptHeldRename(reloadedAs: Post(id: 1, title: "Renamed"))
        let screen = DetailScreen(webservice: webservice)
        await screen.load(resource: Post.resource(id: 1))
        let saving = screen.startSending(try renaming(to: "Renamed"))
        await gate.waitForArrivals()

        let reload = Task { await screen.reload() }
        await clock.waitUntilSleeping(1)
        gate.open()
        await reload.value

        #expect(isSent(saving.outcome))
        #expect(mock.requestCount(for: "/posts/1") == 2)
        #expect(screen.loadingState.content?.title == "Renamed")
        #expect(clock.elapsed == .zero)
    }
}
