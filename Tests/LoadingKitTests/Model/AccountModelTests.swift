import Foundation
import LoadingKit
import LoadingKitTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Two accounts on one webservice, signing in and out and switching back and forth
/// with loads of two screens in flight, answered in any order — some with `401`s that
/// renew the token: after every step, no screen and no stored value shows another
/// account's value than the one signed in, and at the end every screen shows its own.
///
/// `LOADINGKIT_MODEL_SEQUENCES` and `LOADINGKIT_MODEL_SEED` work as for the
/// interleavings (see ``SeededSequences``).
@MainActor
@Suite("Randomized accounts", .timeLimit(.minutes(30)))
struct AccountModelTests {
    @Test("seeded account switches never show one account's value to another")
    func randomSwitches() async throws {
        await SeededSequences.expectNoViolations("accounts") { seed in
            var run = AccountRun(seed: seed)
            return await run.run()
        }
    }
}

/// One seeded sequence of account switches.
@MainActor
private struct AccountRun {
    private let random: RandomSource
    private let transport = HeldTransport()
    private let authenticator: Authenticator
    private let webservice: Webservice
    private let screens: [AccountScreen]
    private let resources = [0, 1].map {
        Resource<TokenServer.Me>(url: URL(string: "https://accounts.test/me/\($0)")!)
    }
    /// The tokens the server takes, with their accounts.
    private let valid = Locked<[String: String]>([:])
    private var signedIn: String?
    private var tokens = 0
    private var loads: [Task<Void, Never>] = []
    /// How many of `loads` have ended.
    private let finished = CounterSignal()
    private var steps: [String] = []

    init(seed: UInt64) {
        random = .seeded(seed &* 0x2545_F491 &+ 11)
        let valid = valid
        authenticator = Authenticator { expired in
            let token = "\(expired.account)-renewed-\(UUID().uuidString)"
            valid.withLock { $0[token] = expired.account }
            return Credential(account: expired.account, bearer: token)
        }
        webservice = Webservice(
            transport: transport,
            configuration: .init(authenticator: authenticator, mutationWait: nil)
        )
        screens = [AccountScreen(webservice: webservice), AccountScreen(webservice: webservice)]
    }

    private func pick(_ count: Int) -> Int {
        min(count - 1, Int(random.next() * Double(count)))
    }

    mutating func run() async -> [String] {
        var violations: [String] = []
        for _ in 0..<(10 + pick(40)) {
            await step()
            await drain()
            violations += check()
            if !violations.isEmpty { break }
        }
        if violations.isEmpty {
            await settle()
            // Signed out, or the credential's renewal failed or was refused: the user
            // signs in again.
            if authenticator.credential == nil { signIn(signedIn ?? "alice") }
            for (index, screen) in screens.enumerated() {
                load(screen, resources[index], policy: .ifNeeded)
            }
            await settle()
            for (index, screen) in screens.enumerated()
            where screen.loadingState.content?.account != signedIn {
                violations.append("screen \(index) ends without its account's value")
            }
        }
        await settle()
        if !violations.isEmpty, ProcessInfo.processInfo.environment["LOADINGKIT_MODEL_SEED"] != nil
        {
            print(steps.joined(separator: "\n"))
            print(screens.map { "\($0.loadingState)" }.joined(separator: "\n"))
        }
        return violations.map { "\($0) after \(steps.suffix(6))" }
    }

    /// What breaks the rule now: a value of another account than the one signed in.
    private func check() -> [String] {
        var violations: [String] = []
        for (index, screen) in screens.enumerated() {
            if let shown = screen.loadingState.content?.account, shown != signedIn {
                violations.append("screen \(index) shows \(shown) to \(signedIn ?? "no one")")
            }
            if let stored = webservice.storedValue(for: resources[index])?.value.account,
                stored != signedIn
            {
                violations.append("the store holds \(stored) for \(signedIn ?? "no one")")
            }
        }
        return violations
    }

    private mutating func signIn(_ account: String) {
        tokens += 1
        let token = "\(account)-\(tokens)"
        valid.withLock { $0[token] = account }
        signedIn = account
        steps.append("\(account) signs in")
        authenticator.signIn(Credential(account: account, bearer: token))
    }

    private mutating func step() async {
        let index = pick(2)
        switch pick(10) {
        case 0:
            signIn(signedIn == "alice" ? "bob" : "alice")
        case 1:
            steps.append("sign-out")
            signedIn = nil
            webservice.signOut()
        case 2:
            signIn(pick(2) == 0 ? "alice" : "bob")
        case 3:
            // The server forgets the current token: the next answer to it is a 401.
            if let token = authenticator.credential?.headerFields["Authorization"] {
                steps.append("token expires")
                valid.withLock {
                    _ = $0.removeValue(forKey: token.replacingOccurrences(of: "Bearer ", with: ""))
                }
            }
        case 4, 5, 6:
            steps.append("screen \(index) loads")
            load(screens[index], resources[index], policy: pick(2) == 0 ? .force : .ifNeeded)
        default:
            let pending = transport.pending
            guard !pending.isEmpty else { return }
            answer(pending[pick(pending.count)])
        }
    }

    private mutating func load(
        _ screen: AccountScreen,
        _ resource: Resource<TokenServer.Me>,
        policy: LoadPolicy
    ) {
        let finished = finished
        loads.append(
            Task {
                await screen.load(resource: resource, policy: policy)
                finished.increment()
            }
        )
    }

    /// Answers `pending` as the server would: the account of a valid token, a `401`
    /// to any other.
    private mutating func answer(_ pending: HeldTransport.Pending) {
        let request = pending.request
        let token = request.value(forHTTPHeaderField: "Authorization")?
            .replacingOccurrences(of: "Bearer ", with: "")
        let account = token.flatMap { token in valid.withLock { $0[token] } }
        let item = Int(request.url!.lastPathComponent)!
        let body = account.map {
            try! JSONEncoder().encode(TokenServer.Me(account: $0, item: item))
        }
        steps.append("answered \(account ?? "401")")
        let response = HTTPURLResponse(
            url: request.url!,
            statusCode: body == nil ? 401 : 200,
            httpVersion: "HTTP/1.1",
            headerFields: ["Content-Type": "application/json"]
        )!
        transport.answer(pending.id, with: .success((body ?? Data(), response)))
    }

    /// Answers every request until none is pending and every load has ended: a load
    /// may send its request late, from a task on another thread (a renewal's).
    private mutating func settle() async {
        while finished.value < loads.count || !transport.pending.isEmpty {
            for request in transport.pending {
                answer(request)
            }
            await drain()
        }
        for load in loads {
            await load.valuePropagatingCancellation
        }
    }

    private func drain() async {
        for _ in 0..<30 {
            await Task.yield()
        }
    }
}
