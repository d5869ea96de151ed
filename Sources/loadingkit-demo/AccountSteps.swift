import Foundation
import LoadingKit
import LoadingKitTesting

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The credentials step of the scripted session: a reader's token expires while five
/// screens load at once; one renewal runs and each request is sent once more.
@MainActor
struct AccountSteps {
    let renderer: any DemoRenderer
    let transport: any Transport
    /// Who hears the events of the step's webservice, with `--verbose`.
    let monitor: (any LoadingMonitor)?

    /// What the step showed.
    struct Outcome: Equatable {
        /// Renewals the server was asked for.
        let renewals: Int
        /// Loads that ended with their item, once the token had expired.
        let loaded: Int
    }

    /// The embedded account server: `GET /items/N` for a valid bearer token, `401`
    /// for another; `POST /renew` gives a new token.
    private final class Accounts: Sendable {
        struct State {
            var valid: Set<String> = ["reader-1"]
            var renewals = 0
        }

        let state = Locked(State())
        let server: LoopbackServer

        init() throws {
            server = try LoopbackServer()
            let state = state
            server.route("/renew", method: .post) { _ in
                state.withLock { state in
                    state.renewals += 1
                    let token = "reader-\(state.renewals + 1)"
                    state.valid.insert(token)
                    return .text(token)
                }
            }
            for item in 1...5 {
                server.route("/items/\(item)") { request in
                    let token = request.header("Authorization")?.dropFirst("Bearer ".count)
                    return state.withLock { state in
                        guard let token, state.valid.contains(String(token)) else {
                            return .status(401)
                        }
                        return .json(Story(id: item, title: "Item \(item)"))
                    }
                }
            }
        }
    }

    func run() async -> Outcome {
        await renderer.step("12. An expired token, renewed once")
        guard let accounts = try? Accounts() else {
            renderer.note("the account server could not start")
            return Outcome(renewals: 0, loaded: 0)
        }
        defer { accounts.server.stop() }
        let renew = Resource<String>(request: Self.renewal(on: accounts.server)) { data, _ in
            String(decoding: data, as: UTF8.self)
        }
        let box = Locked<Webservice?>(nil)
        let authenticator = Authenticator(
            credential: Credential(account: "reader", bearer: "reader-1")
        ) { expired in
            // Sent without the credential; one renewal for every request that found it.
            let token = try await box.withLock { $0 }!.load(renew)
            return Credential(account: expired.account, bearer: token)
        }
        let webservice = Webservice(
            transport: transport,
            configuration: .init(monitor: monitor, authenticator: authenticator)
        )
        box.withLock { box in box = webservice }
        let items = (1...5).map { Resource<Story>(url: accounts.server.url("/items/\($0)")) }

        let first = await Self.loadAll(items, through: webservice)
        renderer.note("signed in as a reader: \(first) of 5 items loaded")
        accounts.state.withLock { _ = $0.valid.remove("reader-1") }
        renderer.note("the server expired the token; five screens load at once")
        let loaded = await Self.loadAll(items.map { $0.ignoringCache() }, through: webservice)
        let renewals = accounts.state.withLock { $0.renewals }
        renderer.note(
            "\(DemoFormat.count(renewals, "renewal")) in all for the 5 loads that found the "
                + "token expired; \(loaded) of 5 loaded with the new token"
        )
        return Outcome(renewals: renewals, loaded: loaded)
    }

    /// Loads `items` at once through `webservice`; how many loaded.
    private static func loadAll(_ items: [Resource<Story>], through webservice: Webservice) async
        -> Int
    {
        await withTaskGroup(of: Bool.self) { group in
            for item in items {
                group.addTask { (try? await webservice.load(item)) != nil }
            }
            var loaded = 0
            for await success in group where success {
                loaded += 1
            }
            return loaded
        }
    }

    /// `POST /renew` on `server`.
    private static func renewal(on server: LoopbackServer) -> URLRequest {
        var request = URLRequest(url: server.url("/renew"))
        request.httpMethod = "POST"
        return request
    }
}
