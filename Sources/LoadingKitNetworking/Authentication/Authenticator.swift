import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The signed-in account of a webservice: it adds the account's ``Credential`` to
/// every request as it is sent, and renews it — once, however many requests found it
/// expired — when the server says it expired.
///
/// ```swift
/// let authenticator = Authenticator { expired in
///     let token = try await renewToken(replacing: expired)
///     return Credential(account: expired.account, bearer: token)
/// }
/// let webservice = Webservice(configuration: .init(authenticator: authenticator))
/// authenticator.signIn(Credential(account: "user-42", bearer: token))
/// ```
///
/// When a request is answered as expired (a `401` by default), the request waits for
/// the renewal — one renewal for every request sent with that credential — and is
/// sent once more with the new credential; a request sent with a credential older
/// than the current one is sent again with the current one, without renewing. When
/// the renewal fails, no request is sent again: each fails with
/// ``AuthenticationFailure/refreshFailed``, screens keep what they show, and nothing
/// is sent until someone signs in. Requests made inside `refresh` are sent as they
/// are, and a `401` to them fails the renewal instead of asking for another.
///
/// Signing in to another account, and signing out, clears what the webservices of
/// the authenticator stored, drops the answers of requests under way, and holds back
/// kept writes until someone signs in. A renewal that ends after the account changed
/// is discarded.
public final class Authenticator: Sendable {
    /// Renews an expired credential; its requests are sent without the credential.
    public typealias Refresh = @Sendable (_ expired: Credential) async throws -> Credential

    /// Whether a response says the credential it was sent with expired.
    public let isExpired: @Sendable (HTTPURLResponse) -> Bool
    private let refresh: Refresh
    private let state: Locked<State>

    /// Creates an authenticator.
    ///
    /// - Parameters:
    ///   - credential: The credential of the account signed in at first, if any.
    ///   - isExpired: Whether a response says the credential expired. Default: a
    ///     `401`.
    ///   - refresh: Renews an expired credential, for the same account.
    public init(
        credential: Credential? = nil,
        isExpired: @escaping @Sendable (HTTPURLResponse) -> Bool = { $0.statusCode == 401 },
        refresh: @escaping Refresh
    ) {
        self.isExpired = isExpired
        self.refresh = refresh
        state = Locked(State(credential: credential, account: credential?.account))
    }

    /// The credential requests are sent with now; `nil` when no one is signed in or its
    /// renewal failed.
    public var credential: Credential? { state.withLock { $0.credential } }

    /// Signs `credential`'s account in: requests are sent with it from now on. Another
    /// account than the one before clears what was stored; the same account keeps it.
    ///
    /// - Parameters:
    ///   - credential: The credential to send.
    ///   - isolation: The caller's isolation: on the main actor, screens are cleared
    ///     before `signIn` returns.
    public func signIn(_ credential: Credential, isolation: isolated (any Actor)? = #isolation) {
        let changed = state.withLock { state -> Bool in
            let changed = state.account != credential.account
            state.change(to: credential, account: credential.account)
            return changed
        }
        if changed {
            tell(.accountChanged(onMainActor: Self.isMainActor(isolation)))
        }
    }

    /// Signs out: requests that need the credential fail with
    /// ``AuthenticationFailure/signedOut`` until someone signs in, and a renewal under
    /// way is discarded. What the webservices of the authenticator stored is cleared,
    /// and what is in flight for the account cancelled.
    ///
    /// - Parameter isolation: The caller's isolation: on the main actor, screens are
    ///   cleared before `signOut` returns.
    public func signOut(isolation: isolated (any Actor)? = #isolation) {
        state.withLock { $0.change(to: nil, account: nil) }
        tell(.accountChanged(onMainActor: Self.isMainActor(isolation)))
    }

    // MARK: - Package

    /// What an authenticator tells the webservices it serves.
    package enum Change: Sendable {
        /// Another account, or none: what was stored belongs to the one before. Told
        /// on the main actor when `onMainActor`.
        case accountChanged(onMainActor: Bool)
        /// A renewal began.
        case refreshStarted
        /// A renewal ended with a credential, or failed.
        case refreshEnded(AuthenticationFailure?)
        /// A renewal ended after the credential changed: its outcome was discarded.
        case refreshDiscarded
    }

    /// The credential a request was sent with, and when.
    package struct Stamp: Sendable {
        /// The number of the credential: it changes with every sign-in, renewal and
        /// sign-out.
        let generation: UInt64
        /// The number of the account: it changes when another account signs in.
        package let account: UInt64
        /// The credential; `nil` when none could be sent, for `failure`.
        let credential: Credential?
        let failure: AuthenticationFailure?
    }

    /// The credential to send a request with now: the renewed one when a renewal is
    /// under way, so that no request goes out with a credential known to be expired.
    package func stampForSending() async -> Stamp {
        if let renewal = state.withLock({ $0.renewal?.task }) {
            await renewal.value
        }
        return state.withLock { $0.stamp }
    }

    /// The number of the account signed in now.
    package var account: UInt64 { state.withLock { $0.accountNumber } }

    /// Whether the calling task renews a credential: its requests are sent as they are.
    @TaskLocal package static var isRefreshing = false

    /// The account whose credential alone the calling task's requests may carry — a
    /// kept write's — or `nil` for any.
    @TaskLocal package static var requiredAccount: String?

    /// The credential to send again a request that `sent` was found expired for: the
    /// current one when it is newer, for the same account; otherwise the one a
    /// renewal — the one under way, or a new one — gives.
    package func renewed(after sent: Stamp) async -> Result<Stamp, AuthenticationFailure> {
        let step = state.withLock { state -> RenewalStep in
            if state.generation != sent.generation || state.renewal?.from == sent.generation {
                return state.renewal.map { .wait($0.task) } ?? .use(state.stamp(after: sent))
            }
            guard let credential = state.credential else { return .use(state.stamp(after: sent)) }
            let from = state.generation
            let task = Task.detached { await self.renew(credential, from: from) }
            state.renewal = (from, task)
            return .start(task)
        }
        switch step {
        case .use(let result):
            return result
        case .start(let task):
            tell(.refreshStarted)
            await task.value
        case .wait(let task):
            await task.value
        }
        return state.withLock { $0.stamp(after: sent) }
    }

    /// Calls `listener` with every change while it returns `true`.
    package func listen(_ listener: @escaping @Sendable (Change) -> Bool) {
        state.withLock { state in
            state.nextListener += 1
            state.listeners[state.nextListener] = listener
        }
    }

    // MARK: - Private

    private enum RenewalStep {
        case use(Result<Stamp, AuthenticationFailure>)
        case start(Task<Void, Never>)
        case wait(Task<Void, Never>)
    }

    private struct State {
        var credential: Credential?
        /// The account signed in, kept when a renewal fails.
        var account: String?
        var generation: UInt64 = 0
        var accountNumber: UInt64 = 0
        var renewalFailed = false
        var renewal: (from: UInt64, task: Task<Void, Never>)?
        var listeners: [UInt64: @Sendable (Change) -> Bool] = [:]
        var nextListener: UInt64 = 0

        init(credential: Credential?, account: String?) {
            self.credential = credential
            self.account = account
        }

        var stamp: Stamp {
            Stamp(
                generation: generation,
                account: accountNumber,
                credential: credential,
                failure: credential != nil ? nil : renewalFailed ? .refreshFailed : .signedOut
            )
        }

        /// The credential to send again a request sent as `sent` with: the current
        /// one, unless the account changed or none is signed in.
        func stamp(after sent: Stamp) -> Result<Stamp, AuthenticationFailure> {
            guard accountNumber == sent.account else { return .failure(.accountChanged) }
            guard generation != sent.generation, credential != nil else {
                return .failure(stamp.failure ?? .refreshFailed)
            }
            return .success(stamp)
        }

        /// Sends `credential` of `account` from now on.
        mutating func change(to credential: Credential?, account: String?) {
            if account != self.account || account == nil {
                accountNumber += 1
            }
            self.credential = credential
            self.account = account
            generation += 1
            renewalFailed = false
            renewal = nil
        }
    }

    /// Renews `credential`, current as number `from`; the outcome counts only while
    /// it still is.
    private func renew(_ credential: Credential, from: UInt64) async {
        let renewed: Credential?
        do {
            renewed = try await Self.$isRefreshing.withValue(true) {
                try await refresh(credential)
            }
        } catch {
            renewed = nil
        }
        let outcome = state.withLock { state -> Change? in
            guard state.generation == from else { return nil }
            if let renewed, renewed.account == credential.account {
                state.credential = renewed
                state.generation += 1
                state.renewal = nil
                return .refreshEnded(nil)
            }
            state.credential = nil
            state.renewalFailed = true
            state.generation += 1
            state.renewal = nil
            return .refreshEnded(.refreshFailed)
        }
        tell(outcome ?? .refreshDiscarded)
    }

    /// Whether `isolation` is the main actor's.
    private static func isMainActor(_ isolation: (any Actor)?) -> Bool {
        isolation.map { $0 === MainActor.shared } ?? false
    }

    private func tell(_ change: Change) {
        let listeners = state.withLock { $0.listeners }
        let gone = listeners.filter { !$0.value(change) }.keys
        guard !gone.isEmpty else { return }
        state.withLock { state in
            for id in gone {
                state.listeners[id] = nil
            }
        }
    }
}
