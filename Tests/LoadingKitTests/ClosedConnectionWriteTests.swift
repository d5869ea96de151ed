import Dispatch
import Foundation
import LoadingKit
import LoadingKitNetworking
import LoadingKitTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Kept writes against a server that closes connections without answering, as
/// servers and balancers close idle kept-alive ones, or that takes a write and is slow
/// to answer: over real `URLSession` on Linux such a write waited a minute for its
/// timeout; now it is sent again at once, or its caller told at once that it is kept,
/// and it is applied once.
@MainActor
@Suite("Kept writes on connections closed unanswered", .timeLimit(.minutes(1)))
struct ClosedConnectionWriteTests {
    let server: IdempotentPostServer
    let temporary = TemporaryDirectory("loadingkit-closed")

    init() throws {
        server = try IdempotentPostServer(posts: [1])
    }

    private func webservice() -> Webservice {
        Webservice(
            transport: URLSessionTransport(),
            configuration: .init(outbox: Outbox(directory: temporary.url, retry: .whenNudged))
        )
    }

    /// A detail screen showing post 1, loaded on a connection kept alive.
    private func screen(on webservice: Webservice) async -> DetailScreen {
        let screen = DetailScreen(webservice: webservice)
        await screen.load(resource: server.resource(ofPost: 1))
        return screen
    }

    /// The keys of every write the server read: closed unanswered, then answered.
    private var keysRead: [String?] {
        server.state.withLock { $0.unansweredKeys + $0.patchKeys }
    }

    @Test(
        "a kept write whose kept-alive connection closes unanswered is sent again at once, and applied once",
        arguments: [HTTPMethod.put, .patch]
    )
    func sentAgainAtOnce(method: HTTPMethod) async throws {
        let webservice = webservice()
        let screen = await screen(on: webservice)
        server.state.withLock { $0.closesKeptAliveConnections = true }
        let write =
            method == .put ? try server.replace(1, with: "Kept") : try server.rename(1, to: "Kept")

        let saved = try await screen.send(write.keptUntilSent())

        #expect(saved.title == "Kept")
        #expect(server.state.withLock { $0.unansweredKeys.count } == 1)
        #expect(Set(keysRead).count == 1)
        #expect(server.appliedTitles == ["Kept"])
        #expect(webservice.configuration.outbox?.pendingWrites.isEmpty == true)
    }

    @Test(
        "while the server closes every connection unanswered, a kept write is queued at once and a reload ends at once; once it answers again, the write is applied once"
    )
    func serverClosingEveryConnection() async throws {
        let webservice = webservice()
        let screen = await screen(on: webservice)
        server.state.withLock { $0.closesEveryConnection = true }

        let write = try server.replace(1, with: "Kept").keptUntilSent()
        var queued: QueuedWrite?
        do {
            _ = try await screen.send(write)
        } catch .webservice(.queued(let kept)) {
            queued = kept
        } catch {
            Issue.record("expected the write to be queued, got \(error)")
        }
        await screen.reload()

        #expect(queued != nil)
        #expect(screen.loadingState.content?.title == "Kept")
        #expect(screen.loadingState.error != nil)
        #expect(server.appliedTitles.isEmpty)

        server.state.withLock { $0.closesEveryConnection = false }
        await webservice.configuration.outbox?.resume()

        #expect(server.appliedTitles == ["Kept"])
        #expect(keysRead.allSatisfy { $0 == queued?.idempotencyKey })
        #expect(webservice.configuration.outbox?.pendingWrites.isEmpty == true)
    }

    @Test(
        "a kept write the server takes and does not answer is reported queued after the outbox's answer wait, and applied once its answer comes"
    )
    func unansweredWriteIsQueued() async throws {
        let clock = ManualClock()
        let recorder = EventRecorder()
        let outbox = Outbox(directory: temporary.url, answerWait: .seconds(3), retry: .whenNudged)
        let webservice = Webservice(
            transport: URLSessionTransport(),
            configuration: .init(clock: clock, monitor: recorder, outbox: outbox)
        )
        let screen = await screen(on: webservice)
        let arrived = CounterSignal()
        let release = DispatchSemaphore(value: 0)
        defer { release.signal() }  // the server's thread never stays held
        server.state.withLock { state in
            state.onPatch = {
                arrived.increment()
                release.wait()
            }
        }
        let write = try server.replace(1, with: "Kept").keptUntilSent()
        let sending = Task { @MainActor () -> QueuedWrite? in
            do throws(LoadingError) {
                _ = try await screen.send(write)
            } catch {
                if case .webservice(.queued(let kept)) = error { return kept }
                Issue.record("expected the write to be queued, got \(error)")
            }
            return nil
        }

        await arrived.wait(for: 1)
        await clock.waitUntilSleeping(1)
        clock.advance(by: .seconds(3))
        let queued = try #require(await sending.valuePropagatingCancellation)

        #expect(screen.loadingState.content?.title == "Kept")
        #expect(outbox.pendingWrites.map(\.sequence) == [queued.sequence])
        #expect(recorder.events.contains { $0.kind == .writeQueued(sequence: queued.sequence) })
        release.signal()
        await recorder.waitForEvents(1) { $0.kind == .writeConfirmed(sequence: queued.sequence) }
        #expect(server.appliedTitles == ["Kept"])
        #expect(outbox.pendingWrites.isEmpty)
    }
}
