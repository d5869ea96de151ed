import Dispatch
import Foundation
import LoadingKit
import LoadingKitTesting

/// The embedded story server: five stories at `/stories`, with an `ETag` that changes
/// with them, and `PATCH /stories/ID` to rename one, which fails once after
/// `refuseNextRename()` and is applied once per `Idempotency-Key`. The next rename
/// after `holdNextRename()`, and the list after `holdNextList()`, is answered once the
/// demo calls `answer()`, so that it shows the screens before the answer.
final class DemoStoryServer: Sendable {
    private struct Stories {
        var titles = (1...5).map { "Story \($0)" }
        var revision = 1
        var refusesRename = false
        var holdsList = false
        var holdsRename = false
        /// The keys of the renames applied, and how many were sent again.
        var appliedKeys: Set<String> = []
        var repeatedKeys = 0
    }

    private final class Store: Sendable {
        let stories = Locked(Stories())
    }

    private struct Rename: Decodable {
        let title: String
    }

    let server: LoopbackServer
    /// The live stories, at `/stories/live`.
    let live: DemoLiveServer
    private let store = Store()
    private let answers = DispatchSemaphore(value: 0)

    /// Starts the server; responses wait `delay`, so that a person sees each step.
    init(delay: Duration) throws {
        server = try LoopbackServer()
        live = DemoLiveServer(on: server)
        // A request held waits on the server's own connection thread.
        server.route("/stories") { [store, answers] request in
            if store.stories.withLock({ $0.holdsList }) {
                store.stories.withLock { $0.holdsList = false }
                _ = answers.wait(timeout: .now() + 10)
            }
            return Self.list(request, store: store).delayed(by: delay)
        }
        for id in 1...5 {
            server.route("/stories/\(id)", method: .patch) { [store, answers] request in
                if store.stories.withLock({ $0.holdsRename }) {
                    store.stories.withLock { $0.holdsRename = false }
                    _ = answers.wait(timeout: .now() + 10)
                }
                return Self.rename(id, request, store: store).delayed(by: delay)
            }
        }
    }

    var baseURL: URL { server.baseURL }
    var requestCount: Int { server.requests.count }

    /// Holds the next request for the list until `answer()`.
    func holdNextList() {
        store.stories.withLock { $0.holdsList = true }
    }

    /// Holds the next rename until `answer()`.
    func holdNextRename() {
        store.stories.withLock { $0.holdsRename = true }
    }

    /// The renames applied with an `Idempotency-Key`, and those sent again with one
    /// already applied — answered, not applied twice.
    var keyedRenames: (applied: Int, repeated: Int) {
        store.stories.withLock { ($0.appliedKeys.count, $0.repeatedKeys) }
    }

    /// Lets the request held, or the next one to be held, be answered.
    func answer() {
        answers.signal()
    }

    /// Makes the server refuse the next rename with a 409 Conflict.
    func refuseNextRename() {
        store.stories.withLock { $0.refusesRename = true }
    }

    private static func list(_ request: LoopbackServer.Request, store: Store) -> MockResponse {
        store.stories.withLock { stories in
            let list = stories.titles.enumerated().map { Story(id: $0 + 1, title: $1) }
            return .revalidating(request, entityTag: "\"r\(stories.revision)\"", .json(list))
        }
    }

    private static func rename(
        _ id: Int,
        _ request: LoopbackServer.Request,
        store: Store
    ) -> MockResponse {
        guard let rename = try? JSONDecoder().decode(Rename.self, from: request.body) else {
            return .status(400)
        }
        let key = request.header("Idempotency-Key")
        return store.stories.withLock { stories in
            if stories.refusesRename {
                stories.refusesRename = false
                return .text("refused", status: 409)
            }
            if let key, !stories.appliedKeys.insert(key).inserted {
                stories.repeatedKeys += 1
                return .json(Story(id: id, title: stories.titles[id - 1]))
            }
            stories.titles[id - 1] = rename.title
            stories.revision += 1
            return .json(Story(id: id, title: rename.title))
        }
    }
}
