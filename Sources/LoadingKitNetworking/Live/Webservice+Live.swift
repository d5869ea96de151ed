extension Webservice {
    /// Follows `live`: every event the server sends from now on, raw and decoded, and
    /// every change of the connection's state, until the follower stops.
    ///
    /// ```swift
    /// let stories = LiveResource<Story>(url: liveURL)
    /// for await update in webservice.follow(stories) {
    ///     switch update {
    ///     case .event(_, let story): print("new:", story.title)
    ///     case .state(.reconnecting(let next)): print("reconnecting in", next.delay)
    ///     default: break
    ///     }
    /// }
    /// ```
    ///
    /// However many follow a live resource, one connection serves them: the first
    /// follower opens it, the last to leave closes it at once. A follower joining an
    /// open connection receives its state first, then the events that come after.
    ///
    /// The connection keeps itself open as the WHATWG standard's `EventSource` does:
    /// after the body ends or the connection drops, it waits the reconnection time —
    /// the server's `retry:`, else ``LiveReconnection/delay`` — with backoff and jitter,
    /// and asks again with `Last-Event-ID`; a connection silent for
    /// ``LiveReconnection/idleTimeout`` is made again. `429`, `503` and other `5xx`
    /// answers are tried again with backoff, honouring `Retry-After`; a `401` with an
    /// ``Authenticator`` renews the credential once and reconnects. `204` stops the
    /// stream, and so does any other status, a `Content-Type` that is not the
    /// framing's, or a line over the framing's limit: the updates end with
    /// ``LiveConnectionState/stopped(_:)``. Credentials follow no redirect to another
    /// origin, as for loads.
    ///
    /// The transport must stream (``StreamingTransport``); another stops the stream with
    /// ``LiveStreamError/transportCannotStream``.
    ///
    /// - Parameter live: What to follow.
    /// - Returns: The updates, from this follower's start.
    public func follow<Event: Sendable>(_ live: LiveResource<Event>) -> LiveFollowing<Event> {
        let identity = live.identity
        return liveConnections.follow(identity) {
            LiveConnection(live: live, identity: identity, webservice: self)
        }
    }

    /// How many live connections are open: one per live resource followed.
    public var liveConnectionCount: Int { liveConnections.count }
}
