/// What a follower of a live resource receives: each event, raw and decoded, and each
/// change of the connection's state, in order.
///
/// ```swift
/// for await update in webservice.follow(stories) {
///     switch update {
///     case .event(let raw, let story): print(raw.lastEventID, story.title)
///     case .undecodable(let raw, let error): print("skipped \(raw.type): \(error)")
///     case .state(let state): print(state)
///     }
/// }
/// ```
public enum LiveUpdate<Event: Sendable>: Sendable {
    /// An event as received — type, data, last event ID — and its value.
    case event(ServerSentEvent, Event)
    /// An event whose value could not be made; the stream goes on.
    case undecodable(ServerSentEvent, LiveStreamError)
    /// The connection's state changed.
    case state(LiveConnectionState)

    /// The event as received, when the update is one.
    public var rawEvent: ServerSentEvent? {
        switch self {
        case .event(let raw, _), .undecodable(let raw, _): raw
        case .state: nil
        }
    }

    /// The event's value, when the update is a decoded event.
    public var value: Event? {
        guard case .event(_, let value) = self else { return nil }
        return value
    }

    /// The connection's state, when the update is a change of it.
    public var connectionState: LiveConnectionState? {
        guard case .state(let state) = self else { return nil }
        return state
    }
}
