import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// How a webservice sends the credential of its ``Authenticator``, and what it does
/// when the account changes.
extension Webservice {
    /// Signs out of the account of the webservice's ``Configuration/authenticator``:
    /// cancels the loads in flight for it, clears every stored value — in memory and
    /// on disk — and from now on fails the requests that need a credential with
    /// ``AuthenticationFailure/signedOut`` and keeps the writes kept until sent waiting,
    /// until someone signs in. A renewal under way is discarded. Does nothing without
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

    /// Adds the credential to send a request with — `given`, or the current one once a
    /// renewal under way has ended — to `request`; `nil` when the webservice has no
    /// authenticator or the request renews the credential.
    func authenticate(
        _ request: inout URLRequest,
        as given: Authenticator.Stamp?
    ) async -> Result<Authenticator.Stamp, AuthenticationFailure>? {
        guard let authenticator = configuration.authenticator, !Authenticator.isRefreshing
        else { return nil }
        var stamp = given
        if stamp == nil {
            stamp = await authenticator.stampForSending()
        }
        guard let stamp else { return nil }
        guard let credential = stamp.credential else {
            return .failure(stamp.failure ?? .signedOut)
        }
        if let required = Authenticator.requiredAccount, required != credential.account {
            return .failure(.accountChanged)
        }
        for (name, value) in credential.headerFields {
            request.setValue(value, forHTTPHeaderField: name)
        }
        return .success(stamp)
    }

    /// Whether the account changed since a request was sent as `stamp`: its answer is
    /// another account's.
    func accountChanged(since stamp: Authenticator.Stamp?) -> Bool {
        guard let stamp, let authenticator = configuration.authenticator else { return false }
        return authenticator.account != stamp.account
    }

    /// Reacts to `change` of the authenticator.
    func authenticationChanged(_ change: Authenticator.Change) {
        let kind: LoadingEvent.Kind
        switch change {
        case .accountChanged(let onMainActor):
            let account = configuration.authenticator?.account ?? 0
            coalescer.cancelFlights { $0.account != account && $0.account != .max }
            store.layHeldChanges(of: configuration.authenticator?.credential?.account)
            removeStoredValues()
            store.tell(.accountChanged(onMainActor: onMainActor))
            // The writes the account signed in kept wait for it no longer.
            configuration.outbox?.sendWaiting()
            kind = .accountChanged
        case .refreshStarted:
            kind = .credentialRefreshStarted
        case .refreshEnded(let failure):
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
