import Foundation

/// How a live resource's body is cut into events: server-sent events
/// (`text/event-stream`), or JSON values one per line (NDJSON).
///
/// ```swift
/// let ticks = LiveResource<Tick>(url: ticksURL, framing: .jsonLines)
/// let feed = LiveResource<Story>(url: feedURL, framing: .serverSentEvents.maximumLineLength(64 << 10))
/// ```
///
/// A line longer than ``maximumLineLength`` ends the stream with
/// ``LiveStreamError/lineTooLong(limit:)``: memory stays bounded whatever the server
/// sends.
public struct LiveFraming: Hashable, Sendable {
    /// The two framings.
    enum Kind: Hashable, Sendable {
        case serverSentEvents
        case jsonLines
    }

    let kind: Kind
    /// The longest line accepted, in bytes; an event's data is held to it too.
    public let maximumLineLength: Int

    /// Server-sent events, parsed as the WHATWG HTML standard's "Interpreting an event
    /// stream" says; lines up to 1 MiB.
    public static let serverSentEvents = LiveFraming(kind: .serverSentEvents)

    /// One JSON value per line (NDJSON, JSON Lines), blank lines skipped; each line is
    /// an event of type `message` whose data is the line. Lines up to 1 MiB.
    public static let jsonLines = LiveFraming(kind: .jsonLines)

    private init(kind: Kind, maximumLineLength: Int = 1 << 20) {
        self.kind = kind
        self.maximumLineLength = maximumLineLength
    }

    /// The same framing with another line limit.
    ///
    /// - Parameter bytes: The longest line accepted, in bytes; at least 1.
    /// - Returns: The framing.
    public func maximumLineLength(_ bytes: Int) -> LiveFraming {
        LiveFraming(kind: kind, maximumLineLength: max(1, bytes))
    }

    /// The media types the request asks for, in `Accept`.
    var accept: String {
        switch kind {
        case .serverSentEvents: "text/event-stream"
        case .jsonLines: "application/x-ndjson, application/jsonl"
        }
    }

    /// Whether a response of `contentType` carries this framing: `text/event-stream`
    /// for events; an NDJSON, JSON Lines or JSON type for lines.
    func accepts(contentType: String?) -> Bool {
        guard let contentType else { return false }
        let type =
            contentType.split(separator: ";", maxSplits: 1).first
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        switch kind {
        case .serverSentEvents:
            return type == "text/event-stream"
        case .jsonLines:
            return [
                "application/x-ndjson", "application/ndjson", "application/jsonl",
                "application/x-jsonlines", "application/jsonlines", "application/json",
            ].contains(type)
        }
    }

    /// A framer for one connection, resuming from `lastEventID`.
    func framer(lastEventID: String) -> Framer {
        switch kind {
        case .serverSentEvents:
            Framer(
                events: EventStreamParser(
                    maximumLineLength: maximumLineLength,
                    lastEventID: lastEventID
                ),
                lastEventID: lastEventID
            )
        case .jsonLines:
            Framer(
                lines: JSONLinesParser(maximumLineLength: maximumLineLength),
                lastEventID: lastEventID
            )
        }
    }

    /// The parser of one connection's body. Each parser is mutated in place, in its
    /// optional: an enum's payload would be copied, buffers and all, at every chunk.
    struct Framer: Sendable {
        private var events: EventStreamParser?
        private var lines: JSONLinesParser?
        private let resumedFrom: String

        init(events: EventStreamParser, lastEventID: String) {
            self.events = events
            resumedFrom = lastEventID
        }

        init(lines: JSONLinesParser, lastEventID: String) {
            self.lines = lines
            resumedFrom = lastEventID
        }

        /// The events `chunk` completes.
        mutating func parse(_ chunk: Data) throws(LiveStreamError) -> [ServerSentEvent] {
            if events != nil {
                return try events!.parse(chunk)
            }
            return try lines!.parse(chunk).map(event)
        }

        /// The events the end of the body completes: a last line of JSON without its
        /// line feed; an unfinished server-sent event is dropped, as the standard says.
        mutating func finish() -> [ServerSentEvent] {
            if events != nil {
                events!.finish()
                return []
            }
            return lines!.finish().map(event)
        }

        /// The last event ID to resume from: JSON lines carry none, so the one resumed
        /// from stays.
        var lastEventID: String { events?.lastEventID ?? resumedFrom }

        /// The reconnection time the server set, if it did.
        var reconnectionTime: Duration? { events?.reconnectionTime }

        private func event(_ line: Data) -> ServerSentEvent {
            ServerSentEvent(
                type: "message",
                data: String(decoding: line, as: UTF8.self),
                lastEventID: resumedFrom
            )
        }
    }
}
