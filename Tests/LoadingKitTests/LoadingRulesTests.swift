import Foundation
import LoadingKit
import LoadingKitTesting
import Testing

/// The rules of DESIGN.md's state model, one test each.
@MainActor
@Suite("Loading rules", .timeLimit(.minutes(1)))
struct LoadingRulesTests {
    let mock = MockTransport()
    let pilot = Episode(id: 1, title: "Pilot")
    let remake = Episode(id: 1, title: "Remake")

    @Test(
        "a superseded response never reaches configure or the state, in either arrival order",
        arguments: [true, false]
    )
    func supersededNeverApplied(olderArrivesFirst: Bool) async throws {
        let older = MockTransport.Gate(honorsCancellation: false)
        let newer = MockTransport.Gate(honorsCancellation: false)
        mock.respond(to: "/episodes/1", with: .json(pilot), after: older)
        mock.respond(to: "/episodes/1", with: .json(remake), after: newer)
        let recorder = EventRecorder()
        let screen = RecordingScreen(transport: mock, monitor: recorder)
        let first = screen.startLoading(resource: Episode.resource(id: 1), policy: .force)
        await older.waitForArrivals()
        let second = screen.startLoading(resource: Episode.resource(id: 1), policy: .force)
        await newer.waitForArrivals()
        // The superseded load ended as the newer one began; its answer, whenever it
        // arrives, is discarded.
        await first.finish()
        if olderArrivesFirst {
            older.open()
            await recorder.waitForEvents(1) { $0.kind == .discarded }
            #expect(screen.loadingState.activity == .loading)
            newer.open()
            await second.finish()
        } else {
            newer.open()
            await second.finish()
            older.open()
            await recorder.waitForEvents(1) { $0.kind == .discarded }
        }
        #expect(screen.log.configured == ["Remake"])
        #expect(screen.loadingState.content == remake)
        #expect(screen.loadingState.activity == .idle)
    }

    @Test("a newer load cancels the request of the one it supersedes")
    func supersedingCancels() async throws {
        let older = MockTransport.Gate()
        mock.respond(to: "/episodes/1", with: .json(pilot), after: older)
        mock.respond(to: "/episodes/1", with: .json(remake))
        let screen = RecordingScreen(transport: mock)
        let first = screen.startLoading(resource: Episode.resource(id: 1), policy: .force)
        await older.waitForArrivals()
        await screen.load(resource: Episode.resource(id: 1), policy: .force)
        await older.waitForCancellations(1)
        await first.finish()
        #expect(screen.log.configured == ["Remake"])
        #expect(screen.log.failures.isEmpty)
    }

    @Test(
        "a released loader is not kept alive; its request is cancelled and nothing is called",
        arguments: [true, false]
    )
    func releasedWhileLoading(transportHonorsCancellation: Bool) async throws {
        let gate = MockTransport.Gate(honorsCancellation: transportHonorsCancellation)
        mock.respond(to: "/episodes/1", with: .json(pilot), after: gate)
        let log = ScreenLog()
        var screen: RecordingScreen? = RecordingScreen(transport: mock, log: log)
        weak let weakScreen = screen
        let task = try #require(screen?.startLoading(resource: Episode.resource(id: 1)))
        await gate.waitForArrivals()
        screen = nil
        #expect(weakScreen == nil)
        if transportHonorsCancellation {
            await gate.waitForCancellations(1)
        } else {
            gate.open()
        }
        await task.finish()
        #expect(log.configured.isEmpty)
        #expect(log.failures.isEmpty)
    }

    @Test("a failed reload keeps the content, records the error and reports it once")
    func failedReloadKeepsContent() async throws {
        mock.respond(to: "/episodes/1", with: .json(pilot))
        mock.respond(to: "/episodes/1", with: .text("down", status: 500))
        let screen = RecordingScreen(transport: mock)
        await screen.load(resource: Episode.resource(id: 1))
        await screen.load(resource: Episode.resource(id: 1), policy: .force)
        let state = screen.loadingState
        #expect(state.content == pilot)
        #expect(state.placeholder == .content)
        guard case .webservice(.badStatus(let failure))? = state.error else {
            Issue.record(
                "expected a bad status in the state, got \(String(describing: state.error))"
            )
            return
        }
        #expect(failure.statusCode == 500)
        #expect(screen.log.failures == [state.error])
        #expect(screen.log.configured == ["Pilot"])
    }

    @Test(
        "cancellation is not failure: the state returns to what it was",
        arguments: [true, false]
    )
    func cancellationRestores(withContent: Bool) async throws {
        let screen = RecordingScreen(transport: mock)
        if withContent {
            mock.respond(to: "/episodes/1", with: .json(pilot))
            await screen.load(resource: Episode.resource(id: 1))
        }
        let before = screen.loadingState
        let gate = MockTransport.Gate()
        mock.respond(to: "/episodes/1", with: .json(remake), after: gate)
        let task = screen.startLoading(resource: Episode.resource(id: 1), policy: .force)
        await gate.waitForArrivals()
        #expect(screen.loadingState.activity == .loading)
        screen.cancelLoading()
        #expect(screen.loadingState.isRestored(from: before))
        await task.finish()
        #expect(screen.loadingState.isRestored(from: before))
        #expect(screen.loadingState.error == nil)
        #expect(screen.log.failures.isEmpty)
        #expect(screen.log.cancellations == 1)
        #expect(screen.log.configured == (withContent ? ["Pilot"] : []))
    }

    @Test("cancelling the awaiting task cancels the load without an error")
    func callerCancellation() async throws {
        let gate = MockTransport.Gate()
        mock.respond(to: "/episodes/1", with: .json(pilot), after: gate)
        let screen = RecordingScreen(transport: mock)
        let caller = Task { await screen.load(resource: Episode.resource(id: 1)) }
        await gate.waitForArrivals()
        caller.cancel()
        await caller.valuePropagatingCancellation
        #expect(screen.loadingState.isRestored(from: LoadingState()))
        #expect(screen.log.failures.isEmpty)
        #expect(screen.log.cancellations == 1)
    }

    @Test("configure is called once per applied value, on the main actor, after validation")
    func configureOncePerValue() async throws {
        mock.respond(to: "/episodes/1", with: .json(pilot))
        mock.respond(to: "/episodes/1", with: .json(Episode(id: 1, title: "Banned")))
        mock.respond(to: "/episodes/1", with: .json(remake))
        let screen = RecordingScreen(transport: mock)
        screen.rejectsTitle = "Banned"
        for _ in 0..<3 {
            await screen.load(resource: Episode.resource(id: 1), policy: .force)
        }
        #expect(screen.log.configured == ["Pilot", "Remake"])
        #expect(!screen.log.configuredOffMain)
        #expect(screen.log.failures == [.rejected("title Banned is not allowed")])
    }

    @Test(
        "an empty value does not call configure unless the conformer asks for it",
        arguments: [false, true]
    )
    func emptyValues(configuresEmptyValues: Bool) async throws {
        mock.respond(to: "/episodes", with: .json([Episode]()))
        let screen = ListScreen(transport: mock)
        screen.configuresEmptyValues = configuresEmptyValues
        await screen.load(resource: Episode.all)
        #expect(screen.loadingState.isEmpty)
        #expect(screen.loadingState.content == [])
        #expect(screen.loadingState.placeholder == .empty)
        #expect(screen.configured == (configuresEmptyValues ? [[]] : []))
    }

    @Test("ifNeeded sends no request when content is loaded")
    func ifNeededSkipsWhenLoaded() async throws {
        mock.respond(to: "/episodes/1", with: .json(pilot))
        let screen = RecordingScreen(transport: mock)
        await screen.load(resource: Episode.resource(id: 1))
        await screen.load(resource: Episode.resource(id: 1))
        await screen.load(resource: Episode.resource(id: 1), policy: .ifNeeded)
        #expect(mock.requests.count == 1)
        #expect(screen.log.configured == ["Pilot"])
    }
}
