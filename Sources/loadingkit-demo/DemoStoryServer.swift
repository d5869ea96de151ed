import Foundation
import LoadingKit
import LoadingKitTesting

/// The embedded story server: five stories at `/stories`, with an `ETag` that changes
/// with them, and `PATCH /stories/3` to rename the third, which fails once after
/// `refuseNextRename()`.
final class DemoStoryServer: Sendable {
    private struct Stories {
        var titles = (1...5).map { "Story \($0)" }
        var revision = 1
        var refusesRename = false
    }

    private final class Store: Sendable {
        let stories = Locked(Stories())
    }

    private struct Rename: Decodable {
        let title: String
    }

    let server: LoopbackServer
    private let store = Store()

    /// Starts the server; responses wait `delay`, so that a person sees each step.
    init(delay: Duration) throws {
        server = try LoopbackServer()
        server.route("/stories") { [store] request in
            Self.list(request, store: store).delayed(by: delay)
        }
        server.route("/stories/3", method: .patch) { [store] request in
            Self.rename(request, store: store).delayed(by: delay)
        }
    }

    var baseURL: URL { server.baseURL }
    var requestCount: Int { server.requests.count }

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
