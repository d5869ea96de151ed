import Dispatch
import Foundation
import LoadingKit
import LoadingKitTesting

/// The embedded story server: five stories at `/stories`, with an `ETag` that changes
/// with them, and `PATCH /stories/3` to rename the third, which fails once after
/// `refuseNextRename()`. A rename, and the list after `holdNextList()`, is answered
/// once the demo calls `answer()`, so that it shows the screens before the answer.
final class DemoStoryServer: Sendable {
    private struct Stories {
        var titles = (1...5).map { "Story \($0)" }
        var revision = 1
        var refusesRename = false
        var holdsList = false
    }

    private final class Store: Sendable {
        let stories = Locked(Stories())
    }

    private struct Rename: Decodable {
        let title: String
    }

    let server: LoopbackServer
    private let store = Store()
    private let answers = DispatchSemaphore(value: 0)

    /// Starts the server; responses wait `delay`, so that a person sees each step.
    init(delay: Duration) throws {
        server = try LoopbackServer()
        // A request held waits on the server's own connection thread.
        server.route("/stories") { [store, answers] request in
            if store.stories.withLock({ $0.holdsList }) {
                store.stories.withLock { $0.holdsList = false }
                _ = answers.wait(timeout: .now() + 10)
            }
            return Self.list(request, store: store).delayed(by: delay)
        }
        server.route("/stories/3", method: .patch) { [store, answers] request in
            _ = answers.wait(timeout: .now() + 10)
            return Self.rename(request, store: store).delayed(by: delay)
        }
    }

    var baseURL: URL { server.baseURL }
    var requestCount: Int { server.requests.count }

    /// Holds the next request for the list until `answer()`.
    func holdNextList() {
        store.stories.withLock { $0.holdsList = true }
    }

    /// Lets the request held, or the next one to be held, be answered.
    func answer() {
        answers.signal()
    }

    /// Makes the next rename fail with a 500.
    func refuseNextRename() {
        store.stories.withLock { $0.refusesRename = true }
    }

    private static func list(_ request: LoopbackServer.Request, store: Store) -> MockResponse {
        store.stories.withLock { stories in
            let list = stories.titles.enumerated().map { Story(id: $0 + 1, title: $1) }
            return .revalidating(request, entityTag: "\"r\(stories.revision)\"", .json(list))
        }
    }

    private static func rename(_ request: LoopbackServer.Request, store: Store) -> MockResponse {
        guard let rename = try? JSONDecoder().decode(Rename.self, from: request.body) else {
            return .status(400)
        }
        return store.stories.withLock { stories in
            if stories.refusesRename {
                stories.refusesRename = false
                return .text("refused", status: 500)
            }
            stories.titles[2] = rename.title
            stories.revision += 1
            return .json(Story(id: 3, title: rename.title))
        }
    }
}
