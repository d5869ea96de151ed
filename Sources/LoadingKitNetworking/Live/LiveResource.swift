import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A resource the server keeps sending: a request, how its body is cut into events
/// (``LiveFraming``) and how each event becomes a value — with an identity like a
/// ``Resource``'s, so that every caller following the same live resource shares one
/// connection.
///
/// ```swift
/// struct Story: Codable, Sendable { let id: Int; let title: String }
///
/// let stories = LiveResource<Story>(url: URL(string: "https://api.example.com/stories/live")!)
/// for await update in webservice.follow(stories) {
///     if case .event(_, let story) = update { print(story.title) }
/// }
/// ```
///
/// Reconnection follows the standard: after the stream ends or its connection drops,
/// the follower waits the reconnection time — the server's `retry:`, else
/// ``reconnection``'s ``LiveReconnection/delay`` — with backoff and jitter, then asks
/// again with `Last-Event-ID`. See ``Webservice/follow(_:)``.
public struct LiveResource<Event: Sendable>: Sendable {
    /// The request sent at each connection; `Accept`, `Cache-Control: no-cache` and
    /// `Last-Event-ID` are set as it is sent.
    public var request: URLRequest
    /// How the body is cut into events.
    public let framing: LiveFraming
    /// Makes an event's value of a raw event; what it throws is reported as
    /// ``LiveUpdate/undecodable(_:_:)`` and the stream goes on.
    public let decode: @Sendable (ServerSentEvent) throws -> Event
    /// When and how often the connection is made again, and after how long a silent
    /// connection is given up.
    public var reconnection: LiveReconnection
    /// The last event ID the first connection resumes from; empty, the default, for
    /// none. Later connections resume from the last event received.
    public var lastEventID: String
    /// What each event changes in the webservice's store, applied once per event however
    /// many follow it.
    package private(set) var storeUpdates: (@Sendable (Event) -> [StoreUpdate])?
    /// Names ``decode`` in the identity.
    private let parseIdentity: ParseIdentity

    /// Creates a live resource of a request, framing and decode.
    ///
    /// A closure has no identity, so the resource shares its connection only with its
    /// own copies; name the decode with ``identified(by:)`` to share it with other
    /// resources made alike.
    ///
    /// - Parameters:
    ///   - request: The request; a `GET` usually.
    ///   - framing: How the body is cut into events; server-sent events by default.
    ///   - decode: Makes each event's value.
    public init(
        request: URLRequest,
        framing: LiveFraming = .serverSentEvents,
        decode: @escaping @Sendable (ServerSentEvent) throws -> Event
    ) {
        self.init(request: request, framing: framing, parseIdentity: .unique, decode: decode)
    }

    /// Creates a live resource of a `GET` of `url`.
    ///
    /// - Parameters:
    ///   - url: Where the stream is.
    ///   - framing: How the body is cut into events; server-sent events by default.
    ///   - decode: Makes each event's value.
    public init(
        url: URL,
        framing: LiveFraming = .serverSentEvents,
        decode: @escaping @Sendable (ServerSentEvent) throws -> Event
    ) {
        self.init(request: URLRequest(url: url), framing: framing, decode: decode)
    }

    private init(
        request: URLRequest,
        framing: LiveFraming,
        parseIdentity: ParseIdentity,
        decode: @escaping @Sendable (ServerSentEvent) throws -> Event
    ) {
        self.request = request
        self.framing = framing
        self.decode = decode
        self.parseIdentity = parseIdentity
        reconnection = LiveReconnection()
        lastEventID = ""
    }

    /// What makes this live resource the same as another: method, URL, header fields,
    /// body, framing, event type and decode — as ``ResourceIdentity`` says for
    /// resources. Two live resources of one identity share one connection.
    public var identity: ResourceIdentity {
        let kind =
            switch framing.kind {
            case .serverSentEvents: "live.events"
            case .jsonLines: "live.lines"
            }
        return Resource<Event>(
            request: request,
            parseIdentity: parseIdentity.appending(.named(kind)),
            parse: { _, _ in throw URLError(.unsupportedURL) }
        ).identity
    }

    /// The same live resource, its decode named `key`: live resources of the same
    /// request and framing with decodes named alike share one connection.
    ///
    /// - Parameter key: The decode's name.
    /// - Returns: The live resource.
    public func identified(by key: String) -> LiveResource {
        var copy = LiveResource(
            request: request,
            framing: framing,
            parseIdentity: .named(key),
            decode: decode
        )
        copy.reconnection = reconnection
        copy.lastEventID = lastEventID
        copy.storeUpdates = storeUpdates
        return copy
    }

    /// The same live resource, each event also changing the webservice's store as
    /// `updates` says — so that every screen showing a resource it changes updates.
    ///
    /// ```swift
    /// let live = LiveResource<Story>(url: liveURL).updatingStore { story in
    ///     [.edit(Story.feed) { $0.insert(story, at: 0) }, .replace(story.resource, with: story)]
    /// }
    /// ```
    ///
    /// - Parameter updates: The changes an event makes, applied in order.
    /// - Returns: The live resource.
    public func updatingStore(
        _ updates: @escaping @Sendable (Event) -> [StoreUpdate]
    ) -> LiveResource {
        var copy = self
        copy.storeUpdates = updates
        return copy
    }

    /// The same live resource with other reconnection settings.
    ///
    /// - Parameter reconnection: The settings.
    /// - Returns: The live resource.
    public func reconnecting(_ reconnection: LiveReconnection) -> LiveResource {
        var copy = self
        copy.reconnection = reconnection
        return copy
    }

    /// The same live resource, resuming after the event `lastEventID`.
    ///
    /// - Parameter lastEventID: The ID of the last event received before.
    /// - Returns: The live resource.
    public func resuming(after lastEventID: String) -> LiveResource {
        var copy = self
        copy.lastEventID = lastEventID
        return copy
    }

    /// The request of a connection: the framing's `Accept`, no cached answer, and
    /// `Last-Event-ID` when one is known.
    func request(resumingAfter lastEventID: String) -> URLRequest {
        var request = request
        request.setValue(framing.accept, forHTTPHeaderField: "Accept")
        request.setValue("no-cache", forHTTPHeaderField: "Cache-Control")
        if !lastEventID.isEmpty {
            request.setValue(lastEventID, forHTTPHeaderField: "Last-Event-ID")
        }
        // The kit keeps its own idle timeout; this only bounds a wait for the head.
        let idle = reconnection.watchedIdleTimeout.map { Double($0.components.seconds) + 5 } ?? 3600
        request.timeoutInterval = max(request.timeoutInterval, idle)
        return request
    }
}

// MARK: - Raw events

extension LiveResource where Event == ServerSentEvent {
    /// Creates a live resource whose values are the raw events, as received.
    ///
    /// ```swift
    /// for await update in webservice.follow(LiveResource(url: eventsURL)) {
    ///     if case .event(let event, _) = update { print(event.type, event.data) }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - url: Where the stream is.
    ///   - framing: How the body is cut into events; server-sent events by default.
    public init(url: URL, framing: LiveFraming = .serverSentEvents) {
        self.init(
            request: URLRequest(url: url),
            framing: framing,
            parseIdentity: .named("raw"),
            decode: { $0 }
        )
    }
}

// MARK: - JSON events

extension LiveResource where Event: Decodable {
    /// Creates a live resource whose events' data are JSON values of `Event`.
    ///
    /// - Parameters:
    ///   - url: Where the stream is.
    ///   - framing: How the body is cut into events; server-sent events by default.
    ///   - decoder: The decoder; `nil`, the default, for a default `JSONDecoder`.
    public init(
        url: URL,
        framing: LiveFraming = .serverSentEvents,
        decoder: JSONDecoder? = nil
    ) {
        self.init(request: URLRequest(url: url), framing: framing, decoder: decoder)
    }

    /// Creates a live resource of `request` whose events' data are JSON values of
    /// `Event`.
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - framing: How the body is cut into events; server-sent events by default.
    ///   - decoder: The decoder; `nil`, the default, for a default `JSONDecoder`.
    public init(
        request: URLRequest,
        framing: LiveFraming = .serverSentEvents,
        decoder: JSONDecoder? = nil
    ) {
        let decoding = decoder ?? JSONDecoder.shared
        self.init(
            request: request,
            framing: framing,
            parseIdentity: .json(decoder),
            decode: { event in try decoding.decode(Event.self, from: Data(event.data.utf8)) }
        )
    }
}
