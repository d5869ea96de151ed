import Foundation

/// Something the kit did or decided about a request or a screen's load: a request
/// sent or answered, a caller joining a request in flight, a `304`, a retry, a
/// cancellation, a superseded load, a `Link` refused or unreadable, a stored value
/// shown or missed.
///
/// A ``Webservice`` hands its events to ``Webservice/Configuration/monitor``, and so do
/// the loaders that load through it (those events name the loader):
///
/// ```swift
/// let webservice = Webservice(configuration: .init(monitor: LoadingEventPrinter()))
/// // → GET https://api.example.com/episodes
/// // ← 200 GET https://api.example.com/episodes · 1024 bytes · 38 ms
/// // [EpisodesScreen] skipped GET https://api.example.com/episodes: the content is current
/// ```
public struct LoadingEvent: Sendable {
    /// What happened.
    public enum Kind: Sendable, Equatable {
        /// A request went to the transport; `attempt` counts from 1, retries included.
        case started(attempt: Int)
        /// A response arrived, whatever its status.
        case finished(status: Int, bytes: Int, duration: Duration)
        /// The attempt failed: no response, a status not accepted, or a parse that
        /// threw.
        case failed(WebserviceError, duration: Duration)
        /// A caller joined an identical request in flight instead of sending its own.
        case coalesced
        /// The server answered `304`: the stored value stands, without decoding.
        case notModified
        /// The failed attempt `attempt - 1` is tried again after `delay`.
        case retrying(attempt: Int, delay: Duration)
        /// The request, or a loader's load, was cancelled.
        case cancelled
        /// A page's `Link` to `target`, on another origin than the page asked for, was
        /// not followed.
        case linkRefused(target: URL)
        /// A page's `Link` header held `valuesLeftOut` values that could not be read:
        /// they were left out, and a `next` among them is not followed.
        case linkMalformed(valuesLeftOut: Int)
        /// A loader opening the resource showed its stored value at once; whether it
        /// is also loaded is the load policy's call, as for any content.
        case storeHit
        /// A loader opened a resource of which nothing is stored.
        case storeMiss
        /// A loader's `ifNeeded` load found the content current and sent
        /// nothing.
        case skipped
        /// A loader's load in flight was superseded by a newer one; its response will
        /// not be shown.
        case superseded
        /// The fetch of a loader's load that had ended — superseded, cancelled, or its
        /// loader released — finished, and this load discarded its outcome: an answer
        /// (which other loaders sharing the request may still show), a failure, or the
        /// fetch's own cancellation. Recorded on the fetch's task as it ends; an answer
        /// that arrives in the very instant its load ends is dropped without it.
        case discarded
        /// A list's page, asked for while the list loads, waits for that load to end
        /// and then loads from the pages it applied.
        case deferred
        /// A list's page was asked for and not loaded: the list shows no pages, or
        /// shows another list's.
        case pageRefused
        /// The request waits for a mutation under way: one that changes what it loads,
        /// or, for a mutation, the one sent before it in its scope.
        case waitingForMutation
        /// The answer arrived after a mutation that changed the resource ended, and was
        /// sent before: it is not stored — it could predate the change — and the
        /// request is sent again.
        case overtakenByMutation
        /// A mutation ended without saying whether the server took its change — timed
        /// out, or its connection lost, after it was sent: the change stays shown,
        /// unconfirmed, and what it changed is loaded again; the server's value then
        /// keeps it or takes it back.
        case changeUnconfirmed
        /// A mutation's optimistic change names a resource no value is stored for:
        /// nothing shown changed. The event's method and URL are the named resource's;
        /// one that differs from what a screen loaded by a header field or its parse is
        /// another resource.
        case changeShownNowhere
        /// A mutation kept until sent was written to the outbox as write `sequence`,
        /// before it is sent.
        case writeKept(sequence: UInt64)
        /// The kept write `sequence` could not reach its server, the server answered
        /// with a server error, no credential could be had for it (signed out, or the
        /// renewed one refused), or a write before it waits: it waits in the outbox.
        case writeQueued(sequence: UInt64)
        /// The server answered the kept write `sequence`: it left the outbox.
        case writeConfirmed(sequence: UInt64)
        /// The server refused the kept write `sequence` with `status`: it left the
        /// outbox and its changes were taken back.
        case writeRejected(sequence: UInt64, status: Int)
        /// The outbox did not take a mutation: it was not sent.
        case outboxRefused(OutboxRefusal)
        /// An outbox file did not read back whole and was removed.
        case outboxFileRefused(name: String)
        /// The credential expired: one renewal began, for every request that found it
        /// expired.
        case credentialRefreshStarted
        /// The renewal ended: `failure` is `nil` when the requests are sent again with
        /// the new credential.
        case credentialRefreshEnded(failure: AuthenticationFailure?)
        /// A renewal ended after the credential had changed: its outcome was dropped.
        case credentialRefreshDiscarded
        /// Another account signed in, or none: what the one before stored was cleared.
        case accountChanged
        /// The loader's type has a stored property `name` (`Type.property`) of type
        /// `declared`, where the protocol's setting of that name is `expected`: it is
        /// not the setting, and the setting's default is used. Reported once per type,
        /// at its first operation.
        case settingIgnored(name: String, declared: String, expected: String)
        /// A live resource's connection began to deliver its stream.
        case liveConnected
        /// A live resource's connection ended and is made again, as connection number
        /// `attempt`, after `delay`.
        case liveReconnecting(attempt: Int, delay: Duration)
        /// A live resource's stream stopped for good: see its followers' state for why.
        case liveStopped
    }

    /// What happened.
    public let kind: Kind
    /// The method of the request concerned.
    public let method: HTTPMethod
    /// The URL of the request concerned, in full: a monitor that writes it somewhere
    /// should redact it as ``line(showingQueryValues:)`` does. `nil` for the events of
    /// loads that do not name one (a container's).
    public let url: URL?
    /// The type of the loader that decided, for the events of loaders; `nil` for those
    /// of the webservice.
    public let loader: String?

    /// Creates an event.
    ///
    /// - Parameters:
    ///   - kind: What happened.
    ///   - method: The method of the request concerned.
    ///   - url: The URL of the request concerned.
    ///   - loader: The type of the loader that decided, if a loader did.
    public init(kind: Kind, method: HTTPMethod, url: URL?, loader: String? = nil) {
        self.kind = kind
        self.method = method
        self.url = url
        self.loader = loader
    }
}
