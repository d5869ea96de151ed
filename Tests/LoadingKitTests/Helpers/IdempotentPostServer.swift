import Foundation
import LoadingKit
import LoadingKitNetworking
import LoadingKitTesting

/// A loopback server of posts that honours `Idempotency-Key`, as a server an outbox
/// replays to should: `PATCH` or `PUT /posts/ID` renames the post once per key, and a
/// repeated key gets the first answer again. It can go away and come back on the same
/// port, or close connections without answering.
final class IdempotentPostServer: Sendable {
    struct State {
        var titles: [Int: String] = [:]
        /// The keys applied, in order, with the title each set.
        var applied: [(key: String, title: String)] = []
        /// The keys seen on every `PATCH`, repeats included.
        var patchKeys: [String?] = []
        /// The credentials seen on every `PATCH`.
        var authorizations: [String?] = []
        /// The `X-API-Key` seen on every `PATCH`.
        var apiKeys: [String?] = []
        /// The status `PATCH` answers with instead of applying, when set.
        var refusal: Int?
        /// The status `PATCH` answers with after applying, when set: a gateway's.
        var statusAfterApplying: Int?
        /// Runs on the server's thread as each `PATCH` arrives.
        var onPatch: (@Sendable () -> Void)?
        /// Runs on the server's thread as each `GET` arrives, before it is answered.
        var onGet: (@Sendable () -> Void)?
        /// Runs on the server's thread after each `PATCH` is applied, before it is
        /// answered.
        var onApplied: (@Sendable () -> Void)?
        /// Whether every request after the first on a connection is read and its
        /// connection closed unanswered, as by a server closing idle connections.
        var closesKeptAliveConnections = false
        /// Whether every request is read and its connection closed unanswered.
        var closesEveryConnection = false
        /// The keys of the writes whose connection was closed unanswered.
        var unansweredKeys: [String?] = []
    }

    let state = Locked(State())
    /// Counts the writes applied.
    let applies = CounterSignal()
    private let server: LoopbackServer

    /// A server holding posts `ids`, titled `Post ID`.
    init(posts ids: [Int]) throws {
        state.withLock { state in
            for id in ids { state.titles[id] = "Post \(id)" }
        }
        server = try LoopbackServer()
        route(server)
    }

    /// `http://127.0.0.1:PORT/posts/ID`.
    func url(ofPost id: Int) -> URL {
        server.url("/posts/\(id)")
    }

    func resource(ofPost id: Int) -> Resource<Post> {
        Resource(url: url(ofPost: id))
    }

    /// A `PATCH` renaming post `id` to `title`, showing the title at once.
    func rename(_ id: Int, to title: String) throws -> Mutation<Post> {
        try Mutation(
            Resource<Post>(url: url(ofPost: id), method: .patch, body: Post(id: id, title: title))
        )
        .optimistically(updating: resource(ofPost: id)) { $0 = Post(id: id, title: title) }
    }

    var titles: [Int: String] { state.withLock { $0.titles } }
    var appliedTitles: [String] { state.withLock { $0.applied.map(\.title) } }
    var patchKeys: [String?] { state.withLock { $0.patchKeys } }

    /// A `PUT` renaming post `id` to `title`, showing the title at once.
    func replace(_ id: Int, with title: String) throws -> Mutation<Post> {
        try Mutation(
            Resource<Post>(url: url(ofPost: id), method: .put, body: Post(id: id, title: title))
        )
        .optimistically(updating: resource(ofPost: id)) { $0 = Post(id: id, title: title) }
    }

    /// Closes the port: requests fail to connect until ``start()``.
    func stop() {
        server.goAway()
    }

    /// Opens the port again.
    func start() throws {
        try server.comeBack()
    }

    private func route(_ server: LoopbackServer) {
        let state = state
        let applies = applies
        for id in 1...9 {
            server.route("/posts/\(id)") { request in
                if Self.closesUnanswered(request, state: state) { return .closedUnanswered }
                state.withLock { $0.onGet }?()
                guard let title = state.withLock({ $0.titles[id] }) else { return .status(404) }
                return .json(Post(id: id, title: title))
            }
            for method in [HTTPMethod.patch, .put] {
                server.route("/posts/\(id)", method: method) { request in
                    Self.write(request, toPost: id, state: state, applies: applies)
                }
            }
        }
    }

    /// Whether the server closes `request`'s connection unanswered.
    private static func closesUnanswered(_ request: LoopbackServer.Request, state: Locked<State>)
        -> Bool
    {
        state.withLock { state in
            let closes =
                state.closesEveryConnection
                || (state.closesKeptAliveConnections && request.numberOnConnection > 1)
            if closes, request.method != "GET" {
                state.unansweredKeys.append(request.header("Idempotency-Key"))
            }
            return closes
        }
    }

    /// Renames post `id` as `request` says, once per idempotency key.
    private static func write(
        _ request: LoopbackServer.Request,
        toPost id: Int,
        state: Locked<State>,
        applies: CounterSignal
    ) -> MockResponse {
        if closesUnanswered(request, state: state) { return .closedUnanswered }
        let key = request.header("Idempotency-Key")
        let post = try? JSONDecoder().decode(Post.self, from: request.body)
        state.withLock { $0.onPatch }?()
        defer { state.withLock { $0.onApplied }?() }
        return state.withLock { state -> MockResponse in
            state.patchKeys.append(key)
            state.authorizations.append(request.header("Authorization"))
            state.apiKeys.append(request.header("X-API-Key"))
            if let refusal = state.refusal { return .status(refusal) }
            guard let post else { return .status(400) }
            if let key, let earlier = state.applied.first(where: { $0.key == key }) {
                return .json(Post(id: id, title: earlier.title))
            }
            state.applied.append((key ?? "", post.title))
            state.titles[id] = post.title
            applies.increment()
            return state.statusAfterApplying.map { .status($0) } ?? .json(post)
        }
    }
}
