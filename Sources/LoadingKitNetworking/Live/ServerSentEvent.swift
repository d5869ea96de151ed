/// One event of a `text/event-stream` body, as an ``EventStreamParser`` dispatches it.
///
/// ```swift
/// var parser = EventStreamParser()
/// let events = try parser.parse(Data("event: tick\nid: 7\ndata: 42\n\n".utf8))
/// // [ServerSentEvent(type: "tick", data: "42", lastEventID: "7")]
/// ```
///
/// Its description names the type, the size of the data and whether an ID is set, never
/// the data or the ID themselves: they are body text, which stays out of logs.
public struct ServerSentEvent: Hashable, Sendable {
    /// The event's type: the value of its `event` field, or `message` when that field
    /// was absent or empty.
    public var type: String
    /// The values of the event's `data` fields, joined by line feeds.
    public var data: String
    /// The stream's last event ID when the event was dispatched: the value of the last
    /// `id` field so far, on this connection or an earlier one; empty when none was set.
    public var lastEventID: String

    /// Makes an event.
    ///
    /// - Parameters:
    ///   - type: The event's type; `message` unless the stream named another.
    ///   - data: The event's data.
    ///   - lastEventID: The stream's last event ID when the event was dispatched.
    public init(type: String = "message", data: String, lastEventID: String = "") {
        self.type = type
        self.data = data
        self.lastEventID = lastEventID
    }
}

extension ServerSentEvent: CustomStringConvertible {
    /// The type, the size of the data in bytes and whether an ID is set, as in
    /// `message event, 42 bytes of data, with an ID`: never the data or the ID.
    public var description: String {
        let id = lastEventID.isEmpty ? "without an ID" : "with an ID"
        return "\(type) event, \(data.utf8.count) bytes of data, \(id)"
    }
}
