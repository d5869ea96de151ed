import Foundation
import LoadingKit
import LoadingKitNetworking
import LoadingKitTesting

/// A loopback server of accounts behind bearer tokens: `GET /me/N` answers the
/// account of a valid token, `401` to any other; `POST /refresh` renews the token sent
/// in its body, unless told to fail. It records the token of every request.
final class TokenServer: Sendable {
    struct State {
        /// The valid tokens, with their accounts.
        var valid: [String: String] = [:]
        /// The token of each request, by path, in order of arrival.
        var log: [(path: String, token: String?)] = []
        var renewals = 0
        /// The status `POST /refresh` answers with instead of a token, when set.
        var refreshRefusal: Int?
        /// Runs on the server's thread before `POST /refresh` answers.
        var onRefresh: (@Sendable () -> Void)?
        /// How many requests with a token not valid must have arrived before any is
        /// answered.
        var refusedTogether = 0
        var refusedArrivals = 0
    }

    /// What `GET /me/N` answers.
    struct Me: Codable, Sendable, Equatable {
        let account: String
        let item: Int
    }

    struct Renewal: Codable, Sendable {
        let token: String
    }

    let state = Locked(State())
    let server: LoopbackServer
    /// Wakes the requests held until enough with a token not valid arrived.
    private let arrivals = NSCondition()

    init() throws {
        server = try LoopbackServer()
        let state = state
        let arrivals = arrivals
        for item in 0..<64 {
            server.route("/me/\(item)") { request in
                let token = Self.token(of: request)
                state.withLock { $0.log.append(("/me", token)) }
                Self.holdRefused(token, state: state, arrivals: arrivals)
                return state.withLock { state -> MockResponse in
                    guard let token, let account = state.valid[token] else { return .status(401) }
                    return .json(Me(account: account, item: item))
                }
            }
        }
        server.route("/refresh", method: .post) { request in
            let token = Self.token(of: request)
            state.withLock { $0.onRefresh }?()
            return state.withLock { state -> MockResponse in
                state.log.append(("/refresh", token))
                if let refusal = state.refreshRefusal { return .status(refusal) }
                guard let old = try? JSONDecoder().decode(Renewal.self, from: request.body),
                    let account = state.valid[old.token] ?? Self.account(ofExpired: old.token)
                else { return .status(400) }
                state.renewals += 1
                let renewed = "\(account)-r\(state.renewals)"
                state.valid[renewed] = account
                return .json(Renewal(token: renewed))
            }
        }
    }

    /// Holds every request with a token not valid until `count` of them arrived, so
    /// that they are all sent before the first is refused.
    func refuseTogether(_ count: Int) {
        state.withLock { $0.refusedTogether = count }
    }

    /// Makes `token` valid for `account`.
    func issue(_ token: String, to account: String) {
        state.withLock { $0.valid[token] = account }
    }

    /// Makes `token` expired: answered `401`, renewable.
    func expire(_ token: String) {
        state.withLock { _ = $0.valid.removeValue(forKey: token) }
    }

    var renewals: Int { state.withLock { $0.renewals } }
    var log: [(path: String, token: String?)] { state.withLock { $0.log } }

    func me(_ item: Int) -> Resource<Me> {
        Resource(url: server.url("/me/\(item)"))
    }

    /// Renews `expired` by `POST /refresh` through `webservice`.
    func renew(_ expired: Credential, through webservice: Webservice) async throws -> Credential {
        let token = expired.headerFields["Authorization"]?.replacingOccurrences(
            of: "Bearer ",
            with: ""
        )
        let request = try Resource<Renewal>(
            url: server.url("/refresh"),
            body: Renewal(token: token ?? "")
        )
        let renewed = try await webservice.load(request)
        return Credential(account: expired.account, bearer: renewed.token)
    }

    private static func holdRefused(_ token: String?, state: Locked<State>, arrivals: NSCondition) {
        let target = state.withLock { state -> Int in
            guard state.refusedTogether > 0, token.map({ state.valid[$0] == nil }) ?? true else {
                return 0
            }
            state.refusedArrivals += 1
            return state.refusedTogether
        }
        guard target > 0 else { return }
        arrivals.lock()
        defer { arrivals.unlock() }
        arrivals.broadcast()
        let deadline = Date(timeIntervalSinceNow: 20)
        while state.withLock({ $0.refusedArrivals < target }), arrivals.wait(until: deadline) {}
    }

    private static func token(of request: LoopbackServer.Request) -> String? {
        request.header("Authorization")?.replacingOccurrences(of: "Bearer ", with: "")
    }

    /// The account of an expired token, which the tests name `ACCOUNT-…`.
    private static func account(ofExpired token: String) -> String? {
        token.split(separator: "-").first.map(String.init)
    }
}
