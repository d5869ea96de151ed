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
        let (gate, a, b) = await startSharing(leader!, follower)
        leader = nil
        // Before: the released screen's task waited for the answer the follower shares.
        await a.finish()
        #expect(follower.loadingState.activity == .loading)
        #expect(gate.cancellations == 0)
        gate.open()
        await b.finish()
        #expect(follower.configured == ["Pilot"])
        #expect(mock.requests.count == 1)
    }

    @Test("the screen that started a shared request, cancelled, stops waiting at once")
    func cancelledLeaderReturnsAtOnce() async throws {
        let webservice = Webservice(transport: mock)
        let leader = SharedScreen(webservice: webservice)
        let follower = SharedScreen(webservice: webservice)
        let (gate, a, b) = await startSharing(leader, follower)
        a.cancel()
        // Before: this waited for the request the follower still shares, held here.
        await a.finish()
        #expect(follower.loadingState.activity == .loading)
        #expect(gate.cancellations == 0)
        #expect(leader.loadingState.wasCancelled)
        gate.open()
        await b.finish()
        #expect(follower.configured == ["Pilot"])
        #expect(leader.configured.isEmpty)
        #expect(mock.requests.count == 1)
    }

    @Test("the screen that started a shared request stops waiting when it cancels its load")
    func leaderCancellingItsLoadReturnsAtOnce() async throws {
        let webservice = Webservice(transport: mock)
        let leader = SharedScreen(webservice: webservice)
        let follower = SharedScreen(webservice: webservice)
        let (ends, ended) = AsyncStream.makeStream(of: LoadingState<Episode>.self)
        let (gate, a, b) = await startSharing(leader, follower) { ended.yield($0) }
        leader.cancelLoading()
        // Before: neither returned until the follower's shared answer came.
        await a.finish()
        var endings = ends.makeAsyncIterator()
        let end = await endings.next()
        #expect(end?.wasCancelled == true)
        #expect(follower.loadingState.activity == .loading)
        #expect(gate.cancellations == 0)
        gate.open()
        await b.finish()
        #expect(follower.configured == ["Pilot"])
        #expect(leader.configured.isEmpty)
    }

    @Test("the screen that started a shared request stops waiting when a newer load supersedes it")
    func supersededLeaderReturnsAtOnce() async throws {
        let webservice = Webservice(transport: mock)
        let leader = SharedScreen(webservice: webservice)
        let follower = SharedScreen(webservice: webservice)
        let (ends, ended) = AsyncStream.makeStream(of: LoadingState<Episode>.self)
        let (gate, a, b) = await startSharing(leader, follower) { ended.yield($0) }
        mock.respond(to: "/episodes/2", with: .json(Episode(id: 2, title: "Finale")))
        await leader.load(resource: Episode.resource(id: 2))
        // Before: the superseded load's handle and completion waited for the shared answer.
        await a.finish()
        var endings = ends.makeAsyncIterator()
        let end = await endings.next()
        // Whether the newer load had applied when the completion ran depends on timing.
        #expect(end != nil)
        #expect(end?.content?.title != "Pilot")
        #expect(follower.loadingState.activity == .loading)
        #expect(gate.cancellations == 0)
        gate.open()
        await b.finish()
        #expect(follower.configured == ["Pilot"])
        #expect(leader.configured == ["Finale"])
    }

    @Test("a load that joined a cancelled one on the same screen stops waiting too")
    func joinerOfCancelledLeaderReturnsAtOnce() async throws {
        let webservice = Webservice(transport: mock)
        let leader = SharedScreen(webservice: webservice)
        let follower = SharedScreen(webservice: webservice)
        let (gate, a, b) = await startSharing(leader, follower)
        let joined = leader.startLoading(resource: Episode.resource(id: 1))
        a.cancel()
        // Before: the joined load waited for the answer the follower still shares.
        await joined.finish()
        #expect(leader.loadingState.wasCancelled)
        #expect(follower.loadingState.activity == .loading)
        gate.open()
        await b.finish()
        #expect(follower.configured == ["Pilot"])
        #expect(leader.configured.isEmpty)
    }

    @Test("over HTTP, a cancelled load that others share returns before the answer")
    func cancelledLeaderReturnsOverHTTP() async throws {
        let server = try LoopbackServer()
        let release = DispatchSemaphore(value: 0)
        defer { release.signal() }
        let pilot = self.pilot
        server.route("/episodes/1") { _ in
            release.wait()
            return .json(pilot)
        }
        let recorder = EventRecorder()
        let webservice = Webservice(
            transport: URLSessionTransport(),
            configuration: .init(monitor: recorder)
        )
        let leader = SharedScreen(webservice: webservice)
        let follower = SharedScreen(webservice: webservice)
        let episode = Resource<Episode>(url: server.url("/episodes/1"))
        let load = Task { await leader.load(resource: episode) }
        await server.waitForRequests(1)
        let followed = follower.startLoading(resource: episode)
        await recorder.waitForEvents(1) { $0.kind == .coalesced }
        load.cancel()
        await load.valuePropagatingCancellation
        #expect(leader.loadingState.wasCancelled)
        #expect(follower.loadingState.activity == .loading)
        release.signal()
        await followed.finish()
        #expect(follower.configured == ["Pilot"])
        #expect(leader.configured.isEmpty)
        #expect(server.requests.count == 1)
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
    /// and returns once the second has joined the first one's request; `firstCompletion`
    /// is the first load's completion.
    private func startSharing(
        _ first: SharedScreen,
        _ second: SharedScreen,
        firstCompletion: (@MainActor (LoadingState<Episode>) -> Void)? = nil
    ) async -> (MockTransport.Gate, LoadTask, LoadTask) {
        let gate = MockTransport.Gate()
        mock.respond(to: "/episodes/1", with: .json(pilot), after: gate)
        let a = first.startLoading(resource: Episode.resource(id: 1), completion: firstCompletion)
        await gate.waitForArrivals()
        let b = second.startLoading(resource: Episode.resource(id: 1))
        await waitUntilShared(second.webservice)
        return (gate, a, b)
    }

    /// Returns once the second screen has joined the first one's request.
    private func waitUntilShared(_ webservice: Webservice) async {
        while webservice.sharedCallers < 2, !Task.isCancelled {
            await Task.yield()
        }
    }
}
