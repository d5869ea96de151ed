import Foundation
import LoadingKit
import LoadingKitTesting
import Testing

/// Loaders sharing one webservice share identical requests in flight.
@MainActor
@Suite("Loaders sharing requests", .timeLimit(.minutes(1)))
struct SharedRequestTests {
    let mock = MockTransport()
    let pilot = Episode(id: 1, title: "Pilot")

    @Test("two screens loading the same resource send one request and both apply it")
    func twoScreensOneRequest() async throws {
        let webservice = Webservice(transport: mock)
        let first = SharedScreen(webservice: webservice)
        let second = SharedScreen(webservice: webservice)
        let (gate, a, b) = await startSharing(first, second)
        gate.open()
        await a.finish()
        await b.finish()
        #expect(first.configured == ["Pilot"])
        #expect(second.configured == ["Pilot"])
        #expect(mock.requests.count == 1)
    }

    @Test("the screen that started a shared request may leave; the other still gets it")
    func leaderLeaves() async throws {
        let webservice = Webservice(transport: mock)
        var leader: SharedScreen? = SharedScreen(webservice: webservice)
        let follower = SharedScreen(webservice: webservice)
        let (gate, _, b) = await startSharing(leader!, follower)
        leader = nil
        #expect(gate.cancellations == 0)
        gate.open()
        await b.finish()
        #expect(follower.configured == ["Pilot"])
        #expect(mock.requests.count == 1)
    }

    @Test("when every screen has left, the shared request is cancelled")
    func everyoneLeaves() async throws {
        let webservice = Webservice(transport: mock)
        let first = SharedScreen(webservice: webservice)
        let second = SharedScreen(webservice: webservice)
        let (gate, _, _) = await startSharing(first, second)
        first.cancelLoading()
        #expect(gate.cancellations == 0)
        second.cancelLoading()
        await gate.waitForCancellations(1)
        #expect(first.loadingState.isRestored(from: LoadingState()))
        #expect(second.loadingState.isRestored(from: LoadingState()))
    }

    /// Starts `first` and then `second` loading the episode, held at the returned gate,
    /// and returns once the second has joined the first one's request.
    private func startSharing(
        _ first: SharedScreen,
        _ second: SharedScreen
    ) async -> (MockTransport.Gate, LoadTask, LoadTask) {
        let gate = MockTransport.Gate()
        mock.respond(to: "/episodes/1", with: .json(pilot), after: gate)
        let a = first.startLoading(resource: Episode.resource(id: 1))
        await gate.waitForArrivals()
        let b = second.startLoading(resource: Episode.resource(id: 1))
        await waitUntilShared(second.webservice)
        return (gate, a, b)
    }

    /// Returns once the second screen has joined the first one's request.
    private func waitUntilShared(_ webservice: Webservice) async {
        while webservice.sharedCallers < 2 {
            await Task.yield()
        }
    }
}
