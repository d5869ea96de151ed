import Foundation
import LoadingKit
import LoadingKitTesting
import Testing

@MainActor
@Suite("Load policies", .timeLimit(.minutes(1)))
struct LoadPolicyTests {
    let mock = MockTransport()
    let pilot = Episode(id: 1, title: "Pilot")

    /// Starts a held load under `policy` and returns the state while it is in flight.
    func stateInFlight(
        of screen: RecordingScreen,
        policy: LoadPolicy
    ) async -> (LoadingState<Episode>, MockTransport.Gate, LoadTask) {
        let gate = MockTransport.Gate()
        mock.respond(to: "/episodes/1", with: .json(pilot), after: gate)
        let task = screen.startLoading(resource: Episode.resource(id: 1), policy: policy)
        await gate.waitForArrivals()
        return (screen.loadingState, gate, task)
    }

    @Test("a first load shows the loading placeholder")
    func firstLoad() async throws {
        let screen = RecordingScreen(transport: mock)
        #expect(screen.loadingState.placeholder == .blank)
        let (state, gate, task) = await stateInFlight(of: screen, policy: .ifNeeded)
        #expect(state.activity == .loading)
        #expect(state.placeholder == .loading)
        gate.open()
        await task.finish()
        #expect(screen.loadingState.placeholder == .content)
        #expect(screen.loadingState.loadedAt != nil)
    }

    @Test("force reloads loaded content, which stays shown")
    func force() async throws {
        mock.respond(to: "/episodes/1", with: .json(pilot))
        let screen = RecordingScreen(transport: mock)
        await screen.load(resource: Episode.resource(id: 1))
        let (state, gate, task) = await stateInFlight(of: screen, policy: .force)
        #expect(state.activity == .loading)
        #expect(state.placeholder == .content)
        gate.open()
        await task.finish()
        #expect(mock.requests.count == 2)
        // The same episode again: nothing new to configure.
        #expect(screen.log.configured == ["Pilot"])
    }

    @Test("background reloads without the loading placeholder")
    func background() async throws {
        let screen = RecordingScreen(transport: mock)
        let (state, gate, task) = await stateInFlight(of: screen, policy: .background)
        #expect(state.activity == .reloading)
        #expect(state.placeholder == .blank)
        gate.open()
        await task.finish()
        #expect(screen.loadingState.content == pilot)
    }

    @Test("ifNeeded reloads after a failure, in the background when content is shown")
    func ifNeededAfterFailure() async throws {
        mock.respond(to: "/episodes/1", with: .json(pilot))
        mock.fail("/episodes/1", with: URLError(.timedOut))
        let screen = RecordingScreen(transport: mock)
        await screen.load(resource: Episode.resource(id: 1))
        await screen.load(resource: Episode.resource(id: 1), policy: .force)
        #expect(screen.loadingState.error != nil)
        let (state, gate, task) = await stateInFlight(of: screen, policy: .ifNeeded)
        #expect(state.activity == .reloading)
        gate.open()
        await task.finish()
        #expect(screen.loadingState.error == nil)
        #expect(mock.requests.count == 3)
    }

    @Test("ifNeeded joins a load in flight instead of sending a second request")
    func ifNeededJoins() async throws {
        let screen = RecordingScreen(transport: mock)
        let (_, gate, task) = await stateInFlight(of: screen, policy: .ifNeeded)
        let joined = screen.startLoading(resource: Episode.resource(id: 1))
        gate.open()
        await joined.finish()
        await task.finish()
        #expect(mock.requests.count == 1)
        #expect(screen.log.configured == ["Pilot"])
    }

    @Test("ignoringCache makes the request bypass caches")
    func ignoringCache() async throws {
        mock.respond(to: "/episodes/1", with: .json(pilot))
        let screen = RecordingScreen(transport: mock)
        await screen.load(resource: Episode.resource(id: 1), policy: .force.ignoringCache)
        #expect(mock.requests.first?.cachePolicy == .reloadIgnoringLocalAndRemoteCacheData)
        #expect(LoadPolicy.background.ignoringCache.description == "background, ignoring cache")
    }

    @Test("a decoding error surfaces in the state with its path")
    func decodingError() async throws {
        mock.respond(to: "/episodes/1", with: .text(#"{"id":1}"#))
        let screen = RecordingScreen(transport: mock)
        await screen.load(resource: Episode.resource(id: 1))
        guard case .error(.webservice(.decoding(let failure))) = screen.loadingState.placeholder
        else {
            Issue.record("expected a decoding error placeholder")
            return
        }
        #expect(failure.codingPath == "title")
        #expect(screen.log.failures.count == 1)
    }

    @Test("the completion form reports the final state once")
    func completionForm() async throws {
        mock.respond(to: "/episodes/1", with: .json(pilot))
        let screen = RecordingScreen(transport: mock)
        let state = try #require(
            await callback { reply in
                screen.startLoading(resource: Episode.resource(id: 1)) { reply($0) }
            }
        )
        #expect(state.content == pilot)
        #expect(state.activity == .idle)
    }

    @Test("appearing loads the screen's resource if needed; disappearing cancels when asked")
    func appearance() async throws {
        let screen = RecordingScreen(transport: mock)
        #expect(screen.loadingDidAppear() == nil)
        screen.resource = Episode.resource(id: 1)
        screen.cancelsLoadingOnDisappear = true
        let gate = MockTransport.Gate()
        mock.respond(to: "/episodes/1", with: .json(pilot), after: gate)
        let task = try #require(screen.loadingDidAppear())
        await gate.waitForArrivals()
        screen.loadingDidDisappear()
        await task.finish()
        #expect(screen.loadingState.isRestored(from: LoadingState()))
        mock.respond(to: "/episodes/1", with: .json(pilot))
        await screen.loadingDidAppear()?.finish()
        screen.loadingDidDisappear()
        #expect(screen.loadingState.content == pilot)
    }

    @Test("reload loads the last resource again")
    func reload() async throws {
        mock.respond(to: "/episodes/1", with: .json(pilot))
        mock.respond(to: "/episodes/1", with: .json(Episode(id: 1, title: "Again")))
        let screen = RecordingScreen(transport: mock)
        await screen.reload()
        #expect(mock.requests.isEmpty)
        await screen.load(resource: Episode.resource(id: 1))
        await screen.reload()
        #expect(screen.log.configured == ["Pilot", "Again"])
    }
}
