import Foundation

/// Cuts an NDJSON (JSON Lines) body into its lines, chunk by chunk: one JSON value per
/// line, for the caller to decode.
///
/// ```swift
/// var parser = JSONLinesParser()
/// for try await chunk in body {
///     for line in try parser.parse(chunk) {
///         show(try JSONDecoder().decode(Tick.self, from: line))
///     }
/// }
/// for line in parser.finish() {
///     show(try JSONDecoder().decode(Tick.self, from: line))
/// }
/// ```
///
/// Lines end with LF, or CRLF; blank lines, of spaces, tabs and CRs only, are skipped,
/// and the last line may lack its line end. Memory stays bounded: a line longer than
/// ``maximumLineLength`` throws ``LiveStreamError/lineTooLong(limit:)`` as soon as its
/// length is known, before its end arrives.
public struct JSONLinesParser: Sendable {
    /// The longest line accepted, in bytes without its line end.
    public let maximumLineLength: Int

    /// The bytes of the line whose end has not arrived yet.
    private var unfinishedLine: [UInt8] = []

    private static let lineFeed = UInt8(ascii: "\n")
    private static let carriageReturn = UInt8(ascii: "\r")

    /// Makes a parser for one body.
    ///
    /// - Parameter maximumLineLength: The longest line accepted, in bytes without its
    ///   line end; a negative value counts as 0.
    public init(maximumLineLength: Int = 1 << 20) {
        self.maximumLineLength = max(0, maximumLineLength)
    }

    /// Parses the next chunk of the body.
    ///
    /// - Parameter chunk: The bytes that follow the chunks parsed before.
    /// - Returns: The bytes of each line the chunk completes, in order, without its line
    ///   end; blank lines left out.
    /// - Throws: ``LiveStreamError/lineTooLong(limit:)`` when a line is longer than
    ///   ``maximumLineLength``. The parser is then of no further use.
    public mutating func parse(_ chunk: Data) throws(LiveStreamError) -> [Data] {
        let result = chunk.withUnsafeBytes { bytes in
            Result { () throws(LiveStreamError) in try parse(bytes) }
        }
        return try result.get()
    }

    /// Parses the next chunk of the body, read in place.
    ///
    /// - Parameter bytes: The bytes that follow the chunks parsed before.
    /// - Returns: The bytes of each line the chunk completes, in order, without its line
    ///   end; blank lines left out.
    /// - Throws: ``LiveStreamError/lineTooLong(limit:)`` when a line is longer than
    ///   ``maximumLineLength``. The parser is then of no further use.
    public mutating func parse(_ bytes: UnsafeRawBufferPointer) throws(LiveStreamError) -> [Data] {
        var lines: [Data] = []
        var start = 0
        while start < bytes.count, let end = index(of: Self.lineFeed, in: bytes, from: start) {
            let line = UnsafeRawBufferPointer(rebasing: bytes[start..<end])
            if unfinishedLine.isEmpty {
                try requireLength(line.count, last: line.last)
                collect(line, into: &lines)
            } else {
                let last = line.last ?? unfinishedLine.last
                try requireLength(unfinishedLine.count + line.count, last: last)
                unfinishedLine.append(contentsOf: line)
                unfinishedLine.withUnsafeBytes { line in collect(line, into: &lines) }
                unfinishedLine.removeAll(keepingCapacity: true)
            }
            start = end + 1
        }
        if start < bytes.count {
            try requireLength(unfinishedLine.count + bytes.count - start, last: bytes.last)
            unfinishedLine.append(contentsOf: bytes[start...])
        }
        return lines
    }

    /// Ends the body.
    ///
    /// - Returns: The last line, when the body ended without its line feed and the line
    ///   is not blank; otherwise nothing. The parser is then ready for another body.
    public mutating func finish() -> [Data] {
        var lines: [Data] = []
        // Its length was held to the limit as it arrived.
        unfinishedLine.withUnsafeBytes { line in collect(line, into: &lines) }
        unfinishedLine = []
        return lines
    }

    /// Adds `line`, without its LF, to `lines` unless it is blank, dropping a last CR.
    private func collect(_ line: UnsafeRawBufferPointer, into lines: inout [Data]) {
        var content = line
        if content.last == Self.carriageReturn {
            content = UnsafeRawBufferPointer(rebasing: content.dropLast())
        }
        let blank = content.allSatisfy { byte in
            byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
                || byte == Self.carriageReturn
        }
        if !blank {
            lines.append(Data(content))
        }
    }

    /// Throws when a line of `count` bytes, the last of them `last`, is longer than the
    /// limit; a last CR is not counted, since it ends the line when an LF follows.
    private func requireLength(_ count: Int, last: UInt8?) throws(LiveStreamError) {
        if count - (last == Self.carriageReturn ? 1 : 0) > maximumLineLength {
            throw .lineTooLong(limit: maximumLineLength)
        }
    }

    /// The index of the first `byte` in `bytes` at or after `start`; nil when none is.
    private func index(
        of byte: UInt8,
        in bytes: UnsafeRawBufferPointer,
        from start: Int
    ) -> Int? {
        guard let base = bytes.baseAddress,
            let found = memchr(base + start, Int32(byte), bytes.count - start)
        else { return nil }
        return base.distance(to: UnsafeRawPointer(found))
    }
}
