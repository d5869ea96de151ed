import Foundation
import LoadingKitTesting
import Observation
import Testing

@testable import LoadingKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@MainActor
@Suite("Observing states", .timeLimit(.minutes(1)))
struct ObservationTests {
    let mock = MockTransport()
    let pilot = Episode(id: 1, title: "Pilot")

    @Test("every observer gets the current state first, then each change")
    func severalObservers() async throws {
        mock.respond(to: "/episodes/1", with: .json(pilot))
        let screen = RecordingScreen(transport: mock)
        let observers = [screen.states, screen.states]
        await screen.load(resource: Episode.resource(id: 1))
        for observer in observers {
            var iterator = observer.makeAsyncIterator()
            #expect(await iterator.next()?.placeholder == .blank)
            #expect(await iterator.next()?.activity == .loading)
            let loaded = await iterator.next()
            #expect(loaded?.content == pilot)
            #expect(loaded?.activity == .idle)
        }
    }

    @Test("a late observer starts with the state as it is")
    func lateObserver() async throws {
        mock.respond(to: "/episodes/1", with: .json(pilot))
        let screen = RecordingScreen(transport: mock)
        await screen.load(resource: Episode.resource(id: 1))
        var iterator = screen.states.makeAsyncIterator()
        #expect(await iterator.next()?.content == pilot)
    }

    @Test("the change hook sees every transition")
    func changeHook() async throws {
        mock.respond(to: "/episodes/1", with: .json(pilot))
        let screen = RecordingScreen(transport: mock)
        await screen.load(resource: Episode.resource(id: 1))
        #expect(
            screen.log.transitions.map { "\($0.from)→\($0.to)" } == [
                "idle→loading", "loading→idle",
            ]
        )
    }

    @Test("an observer that stops iterating is released")
    func stoppedObserverReleased() async throws {
        let screen = RecordingScreen(transport: mock)
        let observed = screen.states
        let kept = screen.states
        let observer = Task {
            for await _ in observed {}
        }
        #expect(screen.loading.observerCount == 2)
        observer.cancel()
        await observer.valuePropagatingCancellation
        #expect(screen.loading.observerCount == 1)
        withExtendedLifetime(kept) {}
    }

    @Test("an observer that comes after every earlier one ended gets each change")
    func observerAfterEveryOneEnded() async throws {
        mock.respond(to: "/episodes/1", with: .json(pilot))
        mock.respond(to: "/episodes/1", with: .json(Episode(id: 1, title: "Take 2")))
        let screen = RecordingScreen(transport: mock)
        let ended = Task { [states = screen.states] in
            for await _ in states {}
        }
        ended.cancel()
        await ended.valuePropagatingCancellation
        // This load's changes find no observer.
        await screen.load(resource: Episode.resource(id: 1))
        var iterator = screen.states.makeAsyncIterator()
        #expect(await iterator.next()?.content == pilot)
        await screen.load(resource: Episode.resource(id: 1), policy: .force)
        #expect(await iterator.next()?.activity == .loading)
        #expect(await iterator.next()?.content?.title == "Take 2")
    }

    @Test("observing a loader changes nothing: one observer, the state as it was")
    func observingWritesNothing() async throws {
        let screen = WriteCountingScreen()
        let states = screen.states
        #expect(screen.loading.observerCount == 1)
        #expect(screen.loadingState == LoadingState())
        withExtendedLifetime(states) {}
    }

    @Test("an @Observable loader is tracked: reading states changes nothing, a load does")
    func observableLoader() async throws {
        mock.respond(to: "/episodes/1", with: .json(pilot))
        let screen = ObservedScreen(transport: mock)
        let (_, changes) = trackingChanges { _ = screen.loadingState.placeholder }
        let states = screen.states
        #expect(changes.value == 0)
        await screen.load(resource: Episode.resource(id: 1))
        #expect(changes.value == 1)
        #expect(screen.loadingState.content == pilot)
        withExtendedLifetime(states) {}
    }

    @Test("a loader whose state is first read after it loaded is tracked from then on")
    func trackedAfterUnreadLoads() async throws {
        mock.respond(to: "/episodes/1", with: .json(pilot))
        mock.respond(to: "/episodes/1", with: .json(pilot))
        let screen = ObservedScreen(transport: mock)
        // Nobody has read the state: its changes tell the registrar nothing.
        await screen.load(resource: Episode.resource(id: 1))
        let (_, changes) = trackingChanges { _ = screen.loadingState.placeholder }
        await screen.load(resource: Episode.resource(id: 1), policy: .force)
        #expect(changes.value == 1)
    }

    @Test("starting a load of another resource reads no state for the code that starts it")
    func loadReadsNoTrackedState() async throws {
        mock.respond(to: "/episodes/1", with: .json(pilot))
        mock.respond(to: "/episodes/2", with: .json(Episode(id: 2, title: "Second")))
        let screen = ObservedScreen(transport: mock)
        await screen.load(resource: Episode.resource(id: 1))
        // A view's body that starts the next episode's load tracks none of the state.
        let (task, changes) = trackingChanges {
            screen.startLoading(resource: Episode.resource(id: 2))
        }
        await task.finish()
        #expect(screen.loadingState.content?.id == 2)
        #expect(changes.value == 0)
    }

    @Test("a reset started in a view's body reads no state for the code that starts it")
    func resetReadsNoTrackedState() async throws {
        mock.respond(to: "/episodes/1", with: .json(pilot))
        mock.respond(to: "/episodes/1", with: .json(pilot))
        let screen = ObservedScreen(transport: mock)
        await screen.load(resource: Episode.resource(id: 1))
        let (_, changes) = trackingChanges { screen.resetLoading() }
        await screen.load(resource: Episode.resource(id: 1))
        #expect(screen.loadingState.content == pilot)
        #expect(changes.value == 0)
    }

    @Test("a copy of the state kept elsewhere delays nothing: the release ends load and streams")
    func keptCopyDelaysNothing() async throws {
        let gate = MockTransport.Gate()
        mock.respond(to: "/episodes/1", with: .json(pilot), after: gate)
        var screen: RecordingScreen? = RecordingScreen(transport: mock)
        let states = try #require(screen?.states)
        let task = screen?.startLoading(resource: Episode.resource(id: 1))
        await gate.waitForArrivals()
        let kept = screen?.loadingState
        screen = nil
        await gate.waitForCancellations()
        var seen: [LoadingActivity] = []
        for await state in states {
            seen.append(state.activity)
        }
        #expect(seen == [.idle, .loading])
        #expect(kept?.activity == .loading)
        await task?.finish()
    }

    @Test("streams end when the loader is released")
    func streamsEndWithLoader() async throws {
        var screen: RecordingScreen? = RecordingScreen(transport: mock)
        let states = try #require(screen?.states)
        screen = nil
        var count = 0
        for await _ in states {
            count += 1
        }
        #expect(count == 1)
    }

    @Test("transfer progress shows in the state while the load is in flight")
    func progress() async throws {
        let gate = MockTransport.Gate()
        let transport = ProgressingTransport(base: mock, fractions: [0.25, 0.5])
        mock.respond(to: "/episodes/1", with: .json(pilot), after: gate)
        let screen = RecordingScreen(transport: transport)
        var states = screen.states.makeAsyncIterator()
        let task = screen.startLoading(resource: Episode.resource(id: 1))
        var seen: [Double] = []
        while seen.count < 2, let state = await states.next() {
            if let progress = state.progress, progress != seen.last {
                seen.append(progress)
            }
        }
        #expect(seen == [0.25, 0.5])
        gate.open()
        await task.finish()
        #expect(screen.loadingState.progress == nil)
        #expect(screen.loadingState.content == pilot)
    }
}

/// Reports the given fractions of a 1,000-byte body, then sends through `base`.
struct ProgressingTransport: Transport {
    let base: MockTransport
    let fractions: [Double]

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        for fraction in fractions {
            TransferProgress.observer?(
                TransferProgress(bytesReceived: Int64(fraction * 1000), expectedBytes: 1000)
            )
        }
        return try await base.send(request)
    }
}

/// A loader with nothing but its core.
@MainActor
private final class WriteCountingScreen: Loading {
    let loading = LoadingCore<Episode>()

    func configure(value: Episode) {}
}

/// A loader that SwiftUI would observe.
@Observable
@MainActor
private final class ObservedScreen: Loading {
    let loading = LoadingCore<Episode>()
    @ObservationIgnored let webservice: Webservice

    init(transport: any Transport) {
        webservice = Webservice(transport: transport)
    }

    func configure(value: Episode) {}
}
