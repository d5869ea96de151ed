import Foundation
import LoadingKit
import LoadingKitNetworking
import LoadingKitTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A screen of the account signed in.
@MainActor
final class AccountScreen: Loading {
    let loading = LoadingCore<TokenServer.Me>()
    let webservice: Webservice

    init(webservice: Webservice) {
        self.webservice = webservice
    }

    func configure(value: TokenServer.Me) {}
}

/// An authenticator against a loopback server of bearer tokens, through a real
/// URLSession: one renewal for many `401`s, a failed renewal final, renewals racing a
/// sign-out or a new credential, a `401` to the renewal itself, the account's values
/// cleared when it changes, and no credential in an event or on another origin.
@MainActor
@Suite("Credentials", .timeLimit(.minutes(1)))
struct AuthenticationTests {
    let server: TokenServer
    let recorder = EventRecorder()
    let alice = Credential(account: "alice", bearer: "alice-t1")

    init() throws {
        server = try TokenServer()
        server.issue("alice-t1", to: "alice")
    }

    /// A webservice signed in as alice whose authenticator renews through the server,
    /// with the webservice itself; `renew` replaces that.
    private func signedIn(
        renew: (@Sendable (Credential, Webservice) async throws -> Credential)? = nil
    ) -> (Webservice, Authenticator) {
        let box = Locked<Webservice?>(nil)
        let server = server
        let authenticator = Authenticator(credential: alice) { expired in
            let webservice = box.withLock { $0 }!
            if let renew { return try await renew(expired, webservice) }
            return try await server.renew(expired, through: webservice)
        }
        let webservice = Webservice(
            transport: URLSessionTransport(configuration: .init(maximumConnectionsPerHost: 64)),
            configuration: .init(monitor: recorder, authenticator: authenticator)
        )
        box.withLock { $0 = webservice }
        return (webservice, authenticator)
    }

    /// Loads items `0..<count` at once; their outcomes, in order.
    private func loadAtOnce(
        _ count: Int,
        through webservice: Webservice
    ) async -> [Result<TokenServer.Me, WebserviceError>] {
        let server = server
        return await withTaskGroup(
            of: (Int, Result<TokenServer.Me, WebserviceError>).self
        ) { group in
            for item in 0..<count {
                group.addTask {
                    do throws(WebserviceError) {
                        return (item, .success(try await webservice.load(server.me(item))))
                    } catch {
                        return (item, .failure(error))
                    }
                }
            }
            var outcomes: [(Int, Result<TokenServer.Me, WebserviceError>)] = []
            for await outcome in group {
                outcomes.append(outcome)
            }
            return outcomes.sorted { $0.0 < $1.0 }.map(\.1)
        }
    }

    /// Expires alice's token and loads item 1 through `webservice`; returns once the
    /// renewal has reached the server, where it waits for `release` to be signalled.
    private func loadWithRenewalHeld(
        through webservice: Webservice
    ) async -> (load: Task<TokenServer.Me, any Error>, release: DispatchSemaphore) {
        let arrived = CounterSignal()
        let release = DispatchSemaphore(value: 0)
        server.state.withLock { state in
            state.onRefresh = {
                arrived.increment()
                release.wait()
            }
        }
        server.expire("alice-t1")
        let resource = server.me(1)
        let load = Task { try await webservice.load(resource) }
        await arrived.wait(for: 1)
        return (load, release)
    }

    private func count(_ kind: LoadingEvent.Kind) -> Int {
        recorder.events.count { $0.kind == kind }
    }

    @Test(
        "50 requests finding the token expired renew it once and are each sent once more with the new one, none with the old"
    )
    func oneRenewalForFifty() async throws {
        let (webservice, authenticator) = signedIn()
        server.expire("alice-t1")
        server.refuseTogether(50)

        let outcomes = await loadAtOnce(50, through: webservice)

        #expect(
            outcomes.compactMap { try? $0.get().account } == Array(repeating: "alice", count: 50)
        )
        #expect(server.renewals == 1)
        let log = server.log
        let renewal = try #require(log.firstIndex { $0.path == "/refresh" })
        #expect(log[renewal].token == nil)  // the renewal carries no credential
        #expect(!log[renewal...].contains { $0.token == "alice-t1" })
        #expect(log.count { $0.token == "alice-t1" } == 50)
        #expect(log.count { $0.token == "alice-r1" } == 50)
        #expect(authenticator.credential == Credential(account: "alice", bearer: "alice-r1"))
        #expect(count(.credentialRefreshStarted) == 1)
        #expect(count(.credentialRefreshEnded(failure: nil)) == 1)
    }

    @Test(
        "a renewal that fails sends nothing again: every request fails typed and every screen keeps its content"
    )
    func failedRenewalIsFinal() async throws {
        let (webservice, authenticator) = signedIn()
        let screens = [
            AccountScreen(webservice: webservice), AccountScreen(webservice: webservice),
        ]
        for (index, screen) in screens.enumerated() {
            await screen.load(resource: server.me(60 + index))
        }
        server.expire("alice-t1")
        server.state.withLock { $0.refreshRefusal = 500 }
        server.refuseTogether(50)

        let outcomes = await loadAtOnce(50, through: webservice)
        for (index, screen) in screens.enumerated() {
            await screen.load(resource: server.me(60 + index), policy: .force)
        }

        let failure = WebserviceError.authentication(.refreshFailed)
        #expect(outcomes.allSatisfy { $0 == .failure(failure) })
        for (index, screen) in screens.enumerated() {
            #expect(
                screen.loadingState.content == TokenServer.Me(account: "alice", item: 60 + index)
            )
            #expect(screen.loadingState.error == .webservice(failure))
        }
        let log = server.log
        let renewal = try #require(log.firstIndex { $0.path == "/refresh" })
        #expect(log.count { $0.path == "/refresh" } == 1)
        #expect(!log[(renewal + 1)...].contains { $0.path == "/me" })
        #expect(authenticator.credential == nil)
        #expect(count(.credentialRefreshEnded(failure: .refreshFailed)) == 1)
    }

    @Test("a renewal that ends after sign-out is discarded, and its request fails typed")
    func renewalRacingSignOut() async throws {
        let (webservice, authenticator) = signedIn()
        let (load, release) = await loadWithRenewalHeld(through: webservice)

        webservice.signOut()
        release.signal()

        await #expect(throws: WebserviceError.authentication(.accountChanged)) {
            try await load.valuePropagatingCancellation
        }
        await recorder.waitForEvents(1) { $0.kind == .credentialRefreshDiscarded }
        #expect(authenticator.credential == nil)
        let sent = server.log.count
        await #expect(throws: WebserviceError.authentication(.signedOut)) {
            try await webservice.load(server.me(2))
        }
        #expect(server.log.count == sent)  // nothing sent with no credential
    }

    @Test(
        "a renewal that ends after the app set a new credential is discarded; the request goes with the app's"
    )
    func renewalRacingNewCredential() async throws {
        let (webservice, authenticator) = signedIn()
        server.issue("alice-t3", to: "alice")
        let (load, release) = await loadWithRenewalHeld(through: webservice)

        authenticator.signIn(Credential(account: "alice", bearer: "alice-t3"))
        release.signal()

        #expect(
            try await load.valuePropagatingCancellation == TokenServer.Me(account: "alice", item: 1)
        )
        #expect(server.log.last?.token == "alice-t3")
        #expect(authenticator.credential == Credential(account: "alice", bearer: "alice-t3"))
        await recorder.waitForEvents(1) { $0.kind == .credentialRefreshDiscarded }
    }

    @Test("requests waiting for a renewal are let go by a sign-out, though the renewal still hangs")
    func signOutReleasesWaiters() async throws {
        let (webservice, _) = signedIn()
        let (load, release) = await loadWithRenewalHeld(through: webservice)

        webservice.signOut()

        await #expect(throws: WebserviceError.authentication(.accountChanged)) {
            try await load.valuePropagatingCancellation
        }
        release.signal()
    }

    @Test(
        "a credential refused while its renewal is under way ends the renewal: no request waits for it"
    )
    func refusedDuringRenewal() async throws {
        let entered = CounterSignal()
        let release = DispatchSemaphore(value: 0)
        let authenticator = Authenticator(credential: alice) { expired in
            entered.increment()
            // A renewal that ignores its cancellation: it ends only when released.
            await withCheckedContinuation { continuation in
                DispatchQueue.global().async {
                    release.wait()
                    continuation.resume()
                }
            }
            return Credential(account: expired.account, bearer: "alice-t2")
        }
        let sent = await authenticator.stampForSending()
        let renewing = Task { await authenticator.renewed(after: sent) }
        await entered.wait(for: 1)

        authenticator.refuse(sent)
        let next = await authenticator.stampForSending()

        #expect(next.credential == nil)
        #expect(next.failure == .refreshFailed)
        let renewed = await renewing.valuePropagatingCancellation
        #expect(throws: AuthenticationFailure.refreshFailed) { try renewed.get() }
        release.signal()
    }

    @Test("a 401 to the renewal's own request fails the renewal, with no second renewal")
    func unauthorizedRenewal() async throws {
        let (webservice, _) = signedIn()
        server.expire("alice-t1")
        server.state.withLock { $0.refreshRefusal = 401 }

        await #expect(throws: WebserviceError.authentication(.refreshFailed)) {
            try await webservice.load(server.me(1))
        }
        #expect(server.log.count { $0.path == "/refresh" } == 1)
        #expect(server.log.map(\.path) == ["/me", "/refresh"])
    }

    @Test(
        "another account signing in clears the screens and the store; an answer for the account before is never shown"
    )
    func accountSwitch() async throws {
        let (webservice, authenticator) = signedIn()
        server.issue("bob-t1", to: "bob")
        let screen = AccountScreen(webservice: webservice)
        await screen.load(resource: server.me(1))
        #expect(screen.loadingState.content?.account == "alice")

        authenticator.signIn(Credential(account: "bob", bearer: "bob-t1"))

        #expect(screen.loadingState.content == nil)
        #expect(webservice.storedValue(for: server.me(1)) == nil)
        await screen.load(resource: server.me(1))
        #expect(screen.loadingState.content?.account == "bob")
        #expect(count(.accountChanged) == 1)
        // Renewing bob's token keeps what bob loaded.
        authenticator.signIn(Credential(account: "bob", bearer: "bob-t1"))
        #expect(screen.loadingState.content?.account == "bob")
    }

    @Test("a screen of a webservice that stores nothing is cleared when the account changes too")
    func accountSwitchWithoutStorage() async throws {
        let authenticator = Authenticator(credential: alice) { $0 }
        let webservice = Webservice(
            transport: URLSessionTransport(),
            configuration: .init(storage: .disabled, authenticator: authenticator)
        )
        let screen = AccountScreen(webservice: webservice)
        await screen.load(resource: server.me(1))
        #expect(screen.loadingState.content?.account == "alice")

        webservice.signOut()

        #expect(screen.loadingState.content == nil)
    }

    @Test("a load for the next account never joins the request in flight for the account before")
    func noCoalescingAcrossCredentials() async throws {
        let transport = HeldTransport()
        let authenticator = Authenticator(credential: alice) { $0 }
        let webservice = Webservice(
            transport: transport,
            configuration: .init(authenticator: authenticator)
        )
        let resource = server.me(1)
        let first = Task { try await webservice.load(resource) }
        await transport.waitForArrivals(1)

        authenticator.signIn(Credential(account: "bob", bearer: "bob-t1"))
        let second = Task { try await webservice.load(resource) }
        await transport.waitForArrivals(2)

        let tokens = transport.pending.map { $0.request.value(forHTTPHeaderField: "Authorization") }
        #expect(tokens == ["Bearer alice-t1", "Bearer bob-t1"])
        for pending in transport.pending {
            let token = pending.request.value(forHTTPHeaderField: "Authorization") ?? ""
            let me = TokenServer.Me(account: token.contains("bob") ? "bob" : "alice", item: 1)
            let response = HTTPURLResponse(
                url: pending.request.url!,
                statusCode: 200,
                httpVersion: "HTTP/1.1",
                headerFields: ["Content-Type": "application/json"]
            )!
            transport.answer(pending.id, with: .success((try JSONEncoder().encode(me), response)))
        }
        #expect(try await second.value.account == "bob")
        await #expect(throws: (any Error).self) { try await first.valuePropagatingCancellation }
    }

    @Test("a header the authenticator adds is dropped on a redirect to another origin")
    func redirectDropsCredential() async throws {
        let other = try LoopbackServer()
        other.route("/landing") { _ in .json(TokenServer.Me(account: "anyone", item: 0)) }
        server.server.route("/away") { _ in
            .status(302, headers: ["Location": other.url("/landing").absoluteString])
        }
        let authenticator = Authenticator(
            credential: Credential(account: "alice", headerFields: ["X-Api-Key": "k-secret"])
        ) { $0 }
        let webservice = Webservice(
            transport: URLSessionTransport(),
            configuration: .init(authenticator: authenticator)
        )

        _ = try await webservice.load(Resource<TokenServer.Me>(url: server.server.url("/away")))

        #expect(server.server.requests.last?.header("X-Api-Key") == "k-secret")
        #expect(other.requests.count == 1)
        #expect(other.requests.first?.header("X-Api-Key") == nil)
    }

    @Test("no event line or error description holds a token or an account")
    func noSecrets() async throws {
        let (webservice, _) = signedIn()
        server.expire("alice-t1")
        _ = await loadAtOnce(3, through: webservice)
        server.expire("alice-r1")
        server.state.withLock { $0.refreshRefusal = 500 }
        let failure = await loadAtOnce(1, through: webservice)
        webservice.signOut()

        let texts =
            recorder.lines
            + failure.compactMap { outcome -> String? in
                guard case .failure(let error) = outcome else { return nil }
                return error.description
            } + [alice.description, String(reflecting: alice)]
        #expect(texts.count > 5)
        for text in texts {
            #expect(!text.contains("alice"), "\(text)")
            #expect(!text.contains("Bearer"), "\(text)")
        }
    }
}
