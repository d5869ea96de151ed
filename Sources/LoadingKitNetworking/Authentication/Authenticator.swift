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
/// kept writes until their own account signs in again. A renewal that ends after the
/// credential changed is discarded.
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
        let (changed, waiters) = state.withLock { state in
            let changed = state.account != credential.account
            return (changed, state.change(to: credential, account: credential.account))
        }
        resume(waiters)
        tell(
            changed ? .accountChanged(onMainActor: Self.isMainActor(isolation)) : .credentialChanged
        )
    }

    /// Signs out: requests that need the credential fail with
    /// ``AuthenticationFailure/signedOut`` until someone signs in, and a renewal under
    /// way is discarded. What the webservices of the authenticator stored is cleared,
    /// and their coalesced loads in flight cancelled.
    ///
    /// - Parameter isolation: The caller's isolation: on the main actor, screens are
    ///   cleared before `signOut` returns.
    public func signOut(isolation: isolated (any Actor)? = #isolation) {
        resume(state.withLock { $0.change(to: nil, account: nil) })
        tell(.accountChanged(onMainActor: Self.isMainActor(isolation)))
    }

    // MARK: - Package

    /// What an authenticator tells the webservices it serves.
    package enum Change: Sendable {
        /// Another account, or none: what was stored belongs to the one before. Told
        /// on the main actor when `onMainActor`.
        case accountChanged(onMainActor: Bool)
        /// The same account signed in again, with a new credential.
        case credentialChanged
        /// A renewal began.
        case refreshStarted
        /// A renewal ended with a credential, or failed; or the server refused the
        /// renewed credential.
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
        package let credential: Credential?
        package let failure: AuthenticationFailure?
    }

    /// The credential to send a request with now: the renewed one when a renewal is
    /// under way, so that no request goes out with a credential known to be expired.
    package func stampForSending() async -> Stamp {
        await waitWhileRenewing()
        return state.withLock { $0.stamp }
    }

    /// `given` when it is still the current credential; otherwise the current one of
    /// the same account, or why there is none.
    package func validate(_ given: Stamp) -> Result<Stamp, AuthenticationFailure> {
        state.withLock { state in
            state.generation == given.generation ? .success(given) : state.stamp(after: given)
        }
    }

    /// Whether `stamp` is the current credential.
    package func isCurrent(_ stamp: Stamp) -> Bool {
        state.withLock { $0.generation == stamp.generation }
    }

    /// Notes that the server refused `stamp`'s credential, just renewed: nothing is
    /// sent with it again, as after a failed renewal.
    package func refuse(_ stamp: Stamp) {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>]? in
            guard state.generation == stamp.generation, state.credential != nil else {
                return nil
            }
            state.credential = nil
            state.renewalFailed = true
            state.generation += 1
            // A renewal of the refused credential under way ends with it.
            state.renewal?.cancel()
            return state.endRenewal()
        }
        if let waiters {
            resume(waiters)
            tell(.refreshEnded(.refused))
        }
    }

    /// The number of the account signed in now.
    package var account: UInt64 { state.withLock { $0.accountNumber } }

    /// The account signed in, also while its renewal failed; `nil` after sign-out.
    package var signedInAccount: String? { state.withLock { $0.account } }

    /// The number of the credential sent now: it changes with every sign-in, renewal
    /// and sign-out.
    package var credentialNumber: UInt64 { state.withLock { $0.generation } }

    /// Whether the calling task renews a credential: its requests are sent as they are,
    /// neither stored nor waiting for writes. Tasks that must not inherit it are
    /// detached.
    @TaskLocal package static var isRefreshing = false

    /// The account whose credential alone the calling task's requests may carry: a
    /// kept write's; `nil` without an authenticator.
    @TaskLocal package static var requiredAccount: String?

    /// The credential to send again a request that `sent` was found expired for: the
    /// current one when it is newer, for the same account; otherwise the one a
    /// renewal — the one under way, or one begun now — gives.
    package func renewed(after sent: Stamp) async -> Result<Stamp, AuthenticationFailure> {
        state.withLock { state in
            guard state.generation == sent.generation, state.renewal == nil,
                let credential = state.credential
            else { return }
            let from = state.generation
            state.renewal = Task.detached { await self.renew(credential, from: from) }
        }
        await waitWhileRenewing()
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

    private struct State {
        var credential: Credential?
        /// The account signed in, kept when a renewal fails.
        var account: String?
        var generation: UInt64 = 0
        var accountNumber: UInt64 = 0
        var renewalFailed = false
        /// The renewal under way, of the current credential.
        var renewal: Task<Void, Never>?
        /// The requests waiting for it to end.
        var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
        var nextWaiter: UInt64 = 0
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

        /// Ends the renewal under way, if any; returns who waited for it.
        mutating func endRenewal() -> [CheckedContinuation<Void, Never>] {
            renewal = nil
            defer { waiters = [:] }
            return Array(waiters.values)
        }

        /// Sends `credential` of `account` from now on, discarding a renewal under way;
        /// returns who waited for it.
        mutating func change(
            to credential: Credential?,
            account: String?
        ) -> [CheckedContinuation<Void, Never>] {
            if account != self.account || account == nil {
                accountNumber += 1
            }
            self.credential = credential
            self.account = account
            generation += 1
            renewalFailed = false
            renewal?.cancel()
            return endRenewal()
        }
    }

    /// Returns once no renewal is under way, or when the calling task is cancelled.
    private func waitWhileRenewing() async {
        guard state.withLock({ $0.renewal != nil }) else { return }
        let id = state.withLock { state in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let isWaiting = state.withLock { state -> Bool in
                    guard state.renewal != nil, !Task.isCancelled else { return false }
                    state.waiters[id] = continuation
                    return true
                }
                if !isWaiting {
                    continuation.resume()
                }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
    }

    private func resume(_ waiters: [CheckedContinuation<Void, Never>]) {
        for waiter in waiters {
            waiter.resume()
        }
    }

    /// Renews `credential`, current as number `from`; the outcome counts only while
    /// it still is.
    private func renew(_ credential: Credential, from: UInt64) async {
        tell(.refreshStarted)
        let renewed: Credential?
        do {
            renewed = try await Self.$isRefreshing.withValue(true) {
                try await refresh(credential)
            }
        } catch {
            renewed = nil
        }
        let (outcome, waiters) = state.withLock {
            state -> (Change, [CheckedContinuation<Void, Never>]) in
            guard state.generation == from else { return (.refreshDiscarded, []) }
            state.generation += 1
            if let renewed, renewed.account == credential.account {
                state.credential = renewed
                return (.refreshEnded(nil), state.endRenewal())
            }
            state.credential = nil
            state.renewalFailed = true
            return (.refreshEnded(.refreshFailed), state.endRenewal())
        }
        resume(waiters)
        tell(outcome)
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
