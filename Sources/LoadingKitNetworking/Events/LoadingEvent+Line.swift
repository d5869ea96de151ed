import Foundation

extension LoadingEvent: CustomStringConvertible {
    /// The event on one line, with no user, password, fragment or query value: see
    /// ``line(showingQueryValues:)``.
    public var description: String { line() }

    /// The event on one line, as ``LoadingEventPrinter`` writes it. The URL never shows
    /// a user, password or fragment; query values show only when asked, since they
    /// can hold keys and tokens (`?page=…&api_key=…`).
    ///
    /// - Parameter showingQueryValues: Whether the values of query items are shown.
    /// - Returns: One line, without a newline.
    public func line(showingQueryValues: Bool = false) -> String {
        let target =
            url.map { "\(method.rawValue) \($0.logged(showingQueryValues: showingQueryValues))" }
            ?? "its load"
        let said = statement(about: target)
        return loader.map { "[\($0)] \(said)" } ?? said
    }

    private func statement(about target: String) -> String {
        switch kind {
        case .started(let attempt):
            attempt == 1 ? "→ \(target)" : "→ \(target) (attempt \(attempt))"
        case .finished(let status, let bytes, let duration):
            "← \(status) \(target) · \(Self.bytes(bytes)) · \(Self.milliseconds(duration))"
        case .failed(let error, let duration):
            "✗ \(error) · \(Self.milliseconds(duration))"
        case .coalesced:
            "⇢ \(target) joins the identical request in flight"
        case .notModified:
            "= \(target) not modified: the stored value stands"
        case .retrying(let attempt, let delay):
            "↻ \(target) attempt \(attempt) in \(Self.milliseconds(delay))"
        case .cancelled:
            "⊘ \(target) cancelled"
        case .linkRefused(let refused):
            "⛔ \(target) links to another origin, not followed: \(refused.origin)"
        case .linkMalformed(let count):
            "⚠ \(target) has a Link header with \(count) unreadable \(count == 1 ? "value" : "values"), left out"
        case .storeHit:
            "stored value shown at once for \(target)"
        case .storeMiss:
            "nothing stored for \(target)"
        case .skipped:
            "skipped \(target): the content is current"
        case .superseded:
            "superseded \(target): a newer load replaces it"
        case .discarded:
            "discarded what \(target) brought: its load had ended"
        case .deferred:
            "deferred a page of \(target): it loads once the list's load ends"
        case .pageRefused:
            "refused a page of \(target): the list shows no pages of it"
        case .waitingForMutation:
            "⏸ \(target) waits for a mutation under way"
        case .overtakenByMutation:
            "↻ \(target) answered before a mutation ended: not stored, sent again"
        case .changeUnconfirmed:
            "? \(target) ended unanswered: its change stays shown, unconfirmed, until reloaded"
        case .changeShownNowhere:
            "⚠ \(target) is not stored: a mutation's optimistic change of it shows nowhere"
        case .writeKept(let sequence):
            "✎ \(target) kept in the outbox as write \(sequence)"
        case .writeQueued(let sequence):
            "⏸ \(target) write \(sequence) waits in the outbox to be sent again"
        case .writeConfirmed(let sequence):
            "✓ \(target) write \(sequence) confirmed: it left the outbox"
        case .writeRejected(let sequence, let status):
            "✗ \(target) write \(sequence) rejected with \(status): its changes were taken back"
        case .outboxRefused(let refusal):
            "✗ \(target) not kept: \(refusal)"
        case .outboxFileRefused(let name):
            "✗ removed unreadable outbox file \(name)"
        case .credentialRefreshStarted:
            "⟳ the credential expired: renewing it once for every request it failed"
        case .credentialRefreshEnded(let failure?):
            "✗ the credential was not renewed: \(failure); no request is sent again"
        case .credentialRefreshEnded(nil):
            "✓ the credential was renewed: the requests it failed are sent again"
        case .credentialRefreshDiscarded:
            "the credential changed during its renewal: the renewal was dropped"
        case .liveConnected:
            "⚡ \(target) live: connected"
        case .liveReconnecting(let attempt, let delay):
            "↻ \(target) live: connection \(attempt) in \(Self.milliseconds(delay))"
        case .liveStopped:
            "■ \(target) live: stopped"
        case .settingIgnored(let name, let declared, let expected):
            "⚠ \(name) is declared \(declared), the requirement \(expected): ignored, the default is used"
        case .accountChanged:
            "the account changed: what the one before stored was cleared"
        }
    }

    private static func bytes(_ count: Int) -> String {
        count == 1 ? "1 byte" : "\(count) bytes"
    }

    private static func milliseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let milliseconds = Double(seconds) * 1e3 + Double(attoseconds) / 1e15
        return milliseconds < 10
            ? "\((milliseconds * 10).rounded() / 10) ms" : "\(Int(milliseconds.rounded())) ms"
    }
}

extension LoadingEvent: CustomDebugStringConvertible, CustomReflectable {
    /// The same as ``description``, so that `debugPrint` and `String(reflecting:)`
    /// print no user, password or query value either.
    public var debugDescription: String { description }

    /// A mirror with the ``description`` only, so that `dump` prints no secret either.
    public var customMirror: Mirror { Mirror(self, children: ["description": description]) }
}
