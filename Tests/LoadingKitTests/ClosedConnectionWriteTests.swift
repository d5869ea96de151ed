import Foundation
import LoadingKit
import LoadingKitNetworking
import LoadingKitTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Kept writes against a server that closes connections without answering, as
/// servers and balancers close idle kept-alive ones: over real `URLSession` on Linux such
/// a write waited a minute for its timeout; now it is sent again at once, or queued at
/// once, and applied once.
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
            configuration: .init(outbox: Outbox(directory: temporary.url))
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
}
