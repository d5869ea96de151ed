import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// How a webservice sends the credential of its ``Authenticator``, and what it does
/// when the account changes.
extension Webservice {
    /// Signs out of the account of the webservice's ``Configuration/authenticator``:
    /// cancels the coalesced loads in flight for it (the answers of its other requests
    /// are dropped when they come), clears every stored value — in memory and on disk
    /// — and every screen, and from now on fails the requests that need a credential
    /// with ``AuthenticationFailure/signedOut``; the writes it kept until sent wait
    /// until it signs in again. A renewal under way is discarded. Does nothing without
    /// an authenticator.
    ///
    /// ```swift
    /// func signOutTapped() { webservice.signOut() }
    /// ```
    ///
    /// - Parameter isolation: The caller's isolation: on the main actor, screens are
    ///   cleared before `signOut` returns.
    public func signOut(isolation: isolated (any Actor)? = #isolation) {
        configuration.authenticator?.signOut()
    }

    /// Adds the credential to send a request with to `request`: `given` while it is
    /// current, or else the current one once a renewal under way has ended; `nil` when
    /// the webservice has no authenticator or the request renews the credential. A
    /// request begun for account number `account` is not sent for another.
    func authenticate(
        _ request: inout URLRequest,
        as given: Authenticator.Stamp?,
        for account: UInt64?
    ) async -> Result<Authenticator.Stamp, AuthenticationFailure>? {
        guard let authenticator = configuration.authenticator else { return nil }
        let required = Authenticator.requiredAccount
        guard required != nil || !Authenticator.isRefreshing else { return nil }
        let stamp: Authenticator.Stamp
        if let given {
            switch authenticator.validate(given) {
            case .success(let current): stamp = current
            case .failure(let failure): return .failure(failure)
            }
        } else {
            stamp = await authenticator.stampForSending()
        }
        if let account, stamp.account != account {
            return .failure(.accountChanged)
        }
        guard let credential = stamp.credential else {
            return .failure(stamp.failure ?? .signedOut)
        }
        if let required, required != credential.account {
            return .failure(.accountChanged)
        }
        for (name, value) in credential.headerFields {
            request.setValue(value, forHTTPHeaderField: name)
        }
        return .success(stamp)
    }

    /// Whether another account signed in since account number `account` was, when
    /// a request or a mutation was sent for it: its answer is another account's.
    func accountChanged(since account: UInt64?) -> Bool {
        guard let account, let authenticator = configuration.authenticator else { return false }
        return authenticator.account != account
    }

    /// Reacts to `change` of the authenticator.
    func authenticationChanged(_ change: Authenticator.Change) {
        let kind: LoadingEvent.Kind
        switch change {
        case .accountChanged(let onMainActor):
            let current = configuration.authenticator?.credentialNumber ?? 0
            fetches.cancel { $0.credential != current && $0.credential != .max }
            store.showPendingChanges(madeBy: configuration.authenticator?.signedInAccount)
            removeStoredValues()
            store.tell(.accountChanged(onMainActor: onMainActor))
            // The writes the account signed in kept wait for it no longer.
            configuration.outbox?.sendWaiting()
            kind = .accountChanged
        case .credentialChanged:
            configuration.outbox?.sendWaiting()
            return
        case .refreshStarted:
            kind = .credentialRefreshStarted
        case .refreshEnded(let failure):
            if failure == nil {
                // The answer that said the credential expired woke no write: with the
                // renewed one, they go — also when no request sent again answers first.
                configuration.outbox?.sendWaiting()
            }
            kind = .credentialRefreshEnded(failure: failure)
        case .refreshDiscarded:
            kind = .credentialRefreshDiscarded
        }
        configuration.monitor?.record(LoadingEvent(kind: kind, method: .get, url: nil))
    }
}

extension Authenticator {
    /// Tells `webservice` of every change while it lives.
    func serve(_ webservice: Webservice) {
        listen { [weak webservice] change in
            guard let webservice else { return false }
            webservice.authenticationChanged(change)
            return true
        }
    }
}
