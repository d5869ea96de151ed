import Foundation

/// Cuts a `text/event-stream` body into events, chunk by chunk, exactly as the WHATWG
/// HTML standard's "Interpreting an event stream" says.
///
/// ```swift
/// var parser = EventStreamParser(lastEventID: savedID)
/// for try await chunk in body {
///     for event in try parser.parse(chunk) {
///         show(event)
///     }
/// }
/// parser.finish()
/// savedID = parser.lastEventID  // sent as Last-Event-ID when reconnecting
/// ```
///
/// The body is read as UTF-8, each invalid byte sequence standing for U+FFFD, and one
/// leading byte order mark is dropped. Lines end with CR, LF or CRLF, also when a chunk
/// ends between the CR and the LF or inside a character. Memory stays bounded: a line
/// longer than ``maximumLineLength`` throws ``LiveStreamError/lineTooLong(limit:)`` as
/// soon as its length is known, before its end arrives, and an event whose data grows
/// past the same limit throws ``LiveStreamError/eventTooLarge(limit:)``.
public struct EventStreamParser: Sendable {
    /// The longest line accepted, in bytes without its line end; an event's data is held
    /// to it too.
    public let maximumLineLength: Int
    /// The stream's last event ID: set at each dispatch, even of an event without data,
    /// from the value of the last `id` field so far. A parser for the next connection is
    /// made with it, and the server is sent it as `Last-Event-ID`.
    public private(set) var lastEventID: String
    /// The reconnection time the stream set with its last valid `retry` field, in
    /// milliseconds; nil until one was set.
    public private(set) var reconnectionTime: Duration?

    /// The bytes of the line whose end has not arrived yet.
    private var unfinishedLine: [UInt8] = []
    /// How many bytes of a byte order mark the stream starts with so far; nil once the
    /// stream is past its start.
    private var byteOrderMarkBytesSeen: Int? = 0
    /// Whether the last line ended with a CR at the end of a chunk, so that an LF
    /// starting the next chunk ends no line.
    private var skipsLineFeed = false
    /// The values of the event's `data` fields so far, each followed by an LF.
    private var dataBuffer: [UInt8] = []
    /// The value of the event's last `event` field.
    private var eventTypeBuffer = ""
    /// The value of the last `id` field so far, which becomes ``lastEventID`` at the
    /// next dispatch.
    private var lastEventIDBuffer: String

    /// Makes a parser for one connection's body.
    ///
    /// - Parameters:
    ///   - maximumLineLength: The longest line accepted, in bytes without its line end,
    ///     and the most data an event may carry; a negative value counts as 0.
    ///   - lastEventID: The last event ID an earlier connection ended with, kept until
    ///     the stream sets another.
    public init(maximumLineLength: Int = 1 << 20, lastEventID: String = "") {
        self.maximumLineLength = max(0, maximumLineLength)
        self.lastEventID = lastEventID
        lastEventIDBuffer = lastEventID
    }

    /// Parses the next chunk of the body.
    ///
    /// - Parameter chunk: The bytes that follow the chunks parsed before.
    /// - Returns: The events the chunk completes, in order.
    /// - Throws: ``LiveStreamError/lineTooLong(limit:)`` when a line is longer than
    ///   ``maximumLineLength``, ``LiveStreamError/eventTooLarge(limit:)`` when an event's
    ///   data grows past it. The parser is then of no further use.
    public mutating func parse(_ chunk: Data) throws(LiveStreamError) -> [ServerSentEvent] {
        let result = chunk.withUnsafeBytes { bytes in
            Result { () throws(LiveStreamError) in try parse(bytes) }
        }
        return try result.get()
    }

    /// Parses the next chunk of the body, read in place.
    ///
    /// - Parameter bytes: The bytes that follow the chunks parsed before.
    /// - Returns: The events the chunk completes, in order.
    /// - Throws: ``LiveStreamError/lineTooLong(limit:)`` when a line is longer than
    ///   ``maximumLineLength``, ``LiveStreamError/eventTooLarge(limit:)`` when an event's
    ///   data grows past it. The parser is then of no further use.
    public mutating func parse(
        _ bytes: UnsafeRawBufferPointer
    ) throws(LiveStreamError) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        var start = skipByteOrderMark(in: bytes)
        if skipsLineFeed, start < bytes.count {
            skipsLineFeed = false
            if bytes[start] == Self.lineFeed {
                start += 1
            }
        }
        var lineEnds = LineEndScanner(bytes: bytes)
        while let end = lineEnds.next(from: start) {
            let line = UnsafeRawBufferPointer(rebasing: bytes[start..<end])
            if unfinishedLine.isEmpty {
                try requireLength(line.count)
                try process(line, into: &events)
            } else {
                try requireLength(unfinishedLine.count + line.count)
                unfinishedLine.append(contentsOf: line)
                try processUnfinishedLine(into: &events)
            }
            start = end + 1
            if bytes[end] == Self.carriageReturn {
                if start == bytes.count {
                    skipsLineFeed = true
                } else if bytes[start] == Self.lineFeed {
                    start += 1
                }
            }
        }
        if start < bytes.count {
            try requireLength(unfinishedLine.count + bytes.count - start)
            unfinishedLine.append(contentsOf: bytes[start...])
        }
        return events
    }

    /// Ends the body: an unfinished line and an event not yet dispatched are dropped, as
    /// the standard says, and the parser is ready for the next connection's body, with
    /// the same ``lastEventID`` and ``reconnectionTime``.
    public mutating func finish() {
        unfinishedLine = []
        byteOrderMarkBytesSeen = 0
        skipsLineFeed = false
        dataBuffer = []
        eventTypeBuffer = ""
        lastEventIDBuffer = lastEventID
    }

    // MARK: - Lines

    private static let lineFeed = UInt8(ascii: "\n")
    private static let carriageReturn = UInt8(ascii: "\r")
    private static let colon = UInt8(ascii: ":")
    private static let space = UInt8(ascii: " ")

    /// Skips the bytes of a leading byte order mark, also when a chunk ends inside it.
    ///
    /// - Returns: The index of the first byte after the mark's bytes in `bytes`.
    private mutating func skipByteOrderMark(in bytes: UnsafeRawBufferPointer) -> Int {
        guard var seen = byteOrderMarkBytesSeen else { return 0 }
        let mark: [UInt8] = [0xEF, 0xBB, 0xBF]
        var index = 0
        while seen < mark.count, index < bytes.count {
            guard bytes[index] == mark[seen] else {
                // The bytes matched so far were not a mark but the start of the first line.
                unfinishedLine.append(contentsOf: mark[..<seen])
                byteOrderMarkBytesSeen = nil
                return index
            }
            seen += 1
            index += 1
        }
        byteOrderMarkBytesSeen = seen == mark.count ? nil : seen
        return index
    }

    /// Throws when a line of `count` bytes is longer than the limit.
    private func requireLength(_ count: Int) throws(LiveStreamError) {
        if count > maximumLineLength {
            throw .lineTooLong(limit: maximumLineLength)
        }
    }

    /// Processes the line gathered over several chunks, keeping its buffer for the next.
    private mutating func processUnfinishedLine(
        into events: inout [ServerSentEvent]
    ) throws(LiveStreamError) {
        var line: [UInt8] = []
        swap(&line, &unfinishedLine)
        let result = line.withUnsafeBytes { bytes in
            Result { () throws(LiveStreamError) in try process(bytes, into: &events) }
        }
        try result.get()
        line.removeAll(keepingCapacity: true)
        swap(&line, &unfinishedLine)
    }

    /// Processes one line, without its line end: a blank line dispatches the event, a
    /// line starting with a colon is a comment, any other sets a field.
    private mutating func process(
        _ line: UnsafeRawBufferPointer,
        into events: inout [ServerSentEvent]
    ) throws(LiveStreamError) {
        guard let first = line.first else {
            dispatch(into: &events)
            return
        }
        if first == Self.colon {
            return
        }
        let colon = line.firstIndex(of: Self.colon) ?? line.count
        guard let field = Field(name: UnsafeRawBufferPointer(rebasing: line[..<colon])) else {
            return
        }
        var valueStart = min(colon + 1, line.count)
        if valueStart < line.count, line[valueStart] == Self.space {
            valueStart += 1
        }
        try set(field, to: UnsafeRawBufferPointer(rebasing: line[valueStart...]))
    }

    // MARK: - Fields and events

    /// The fields the standard defines; any other is ignored.
    private enum Field {
        case data
        case event
        case id
        case retry

        /// The field of `name`, compared byte by byte and case-sensitively.
        init?(name: UnsafeRawBufferPointer) {
            switch name.count {
            case 2 where name.elementsEqual("id".utf8): self = .id
            case 4 where name.elementsEqual("data".utf8): self = .data
            case 5 where name.elementsEqual("event".utf8): self = .event
            case 5 where name.elementsEqual("retry".utf8): self = .retry
            default: return nil
            }
        }
    }

    /// Sets `field` to `value`, as the standard's steps for that field say.
    private mutating func set(
        _ field: Field,
        to value: UnsafeRawBufferPointer
    ) throws(LiveStreamError) {
        switch field {
        case .data:
            // The buffer's last LF separates this value from the one before.
            if dataBuffer.count + value.count > maximumLineLength {
                throw .eventTooLarge(limit: maximumLineLength)
            }
            dataBuffer.append(contentsOf: value)
            dataBuffer.append(Self.lineFeed)
        case .event:
            eventTypeBuffer = String(decoding: value, as: UTF8.self)
        case .id:
            if !value.contains(0) {
                lastEventIDBuffer = String(decoding: value, as: UTF8.self)
            }
        case .retry:
            if let milliseconds = Self.milliseconds(value) {
                reconnectionTime = .milliseconds(milliseconds)
            }
        }
    }

    /// The value of a `retry` field: ASCII digits only, at least one, read in base ten;
    /// a number too large for 64 bits is clamped.
    private static func milliseconds(_ value: UnsafeRawBufferPointer) -> Int64? {
        guard !value.isEmpty else { return nil }
        var milliseconds: Int64 = 0
        for byte in value {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            let (tens, overflow) = milliseconds.multipliedReportingOverflow(by: 10)
            let (sum, carry) = tens.addingReportingOverflow(Int64(byte - UInt8(ascii: "0")))
            milliseconds = overflow || carry ? .max : sum
        }
        return milliseconds
    }

    /// Dispatches the event the buffers hold, if it has data, and empties them.
    private mutating func dispatch(into events: inout [ServerSentEvent]) {
        lastEventID = lastEventIDBuffer
        guard !dataBuffer.isEmpty else {
            eventTypeBuffer = ""
            return
        }
        let data = dataBuffer.withUnsafeBufferPointer { buffer in
            String(decoding: UnsafeBufferPointer(rebasing: buffer.dropLast()), as: UTF8.self)
        }
        events.append(
            ServerSentEvent(
                type: eventTypeBuffer.isEmpty ? "message" : eventTypeBuffer,
                data: data,
                lastEventID: lastEventID
            )
        )
        dataBuffer.removeAll(keepingCapacity: true)
        eventTypeBuffer = ""
    }
}

/// Finds the line ends of a chunk, CR or LF: each byte is searched for with `memchr` and
/// the position found kept until the scan passes it, so the chunk is read at most twice
/// whichever line end the stream uses.
private struct LineEndScanner {
    let bytes: UnsafeRawBufferPointer
    private var nextLineFeed = -1
    private var nextCarriageReturn = -1

    init(bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// The index of the first line end at or after `start`; nil when the chunk has none.
    mutating func next(from start: Int) -> Int? {
        guard start < bytes.count else { return nil }
        if nextLineFeed < start {
            nextLineFeed = index(of: UInt8(ascii: "\n"), from: start)
        }
        if nextCarriageReturn < start {
            nextCarriageReturn = index(of: UInt8(ascii: "\r"), from: start)
        }
        let end = min(nextLineFeed, nextCarriageReturn)
        return end < bytes.count ? end : nil
    }

    /// The index of the first `byte` at or after `start`, or the chunk's count.
    private func index(of byte: UInt8, from start: Int) -> Int {
        guard let base = bytes.baseAddress,
            let found = memchr(base + start, Int32(byte), bytes.count - start)
        else { return bytes.count }
        return base.distance(to: UnsafeRawPointer(found))
    }
}
