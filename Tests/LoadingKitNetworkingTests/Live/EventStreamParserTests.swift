import Foundation
import LoadingKitNetworking
import Testing

@Suite("EventStreamParser", .timeLimit(.minutes(1)))
struct EventStreamParserTests {
    // MARK: - Decoding

    @Test("invalid UTF-8 reads as U+FFFD, one for each maximal subpart")
    func invalidBytes() {
        let body: [UInt8] =
            Array("data: a".utf8) + [0xFF] + Array("b".utf8) + [0xE2, 0x82] + Array("c".utf8)
            + [0xC0, 0xAF] + [0xED, 0xA0, 0x80] + [0xF0, 0x9F, 0x98] + Array("\n\n".utf8)
        let outcome = interpret([body])
        // FF: one; E2 82, cut short: one; C0 AF, where C0 never starts a character: two;
        // ED A0 80, a surrogate: three; F0 9F 98, cut short by the LF: one.
        #expect(
            outcome.events.map(\.data) == [
                "a\u{FFFD}b\u{FFFD}c" + String(repeating: "\u{FFFD}", count: 6)
            ]
        )
    }

    @Test("a character split between two chunks is decoded whole", arguments: 1...3)
    func splitCharacter(offset: Int) {
        let body = Array("data: 😀\n\n".utf8)
        let cut = "data: ".utf8.count + offset
        let outcome = interpret([Array(body[..<cut]), Array(body[cut...])])
        #expect(outcome.events == [ServerSentEvent(data: "😀")])
    }

    @Test(
        "one leading byte order mark is dropped, also when split between chunks",
        arguments: 0...3
    )
    func leadingByteOrderMark(cut: Int) {
        let body = Array("\u{FEFF}data: x\n\n".utf8)
        let outcome = interpret([Array(body[..<cut]), Array(body[cut...])])
        #expect(outcome.events == [ServerSentEvent(data: "x")])
    }

    @Test("a second byte order mark is kept, so the first field's name is unknown")
    func secondByteOrderMark() {
        #expect(interpret(text: "\u{FEFF}\u{FEFF}data: x\n\n").events.isEmpty)
        #expect(interpret(text: "data: x\n\u{FEFF}data: y\n\n").events.map(\.data) == ["x"])
    }

    @Test("the start of a byte order mark is text of the first line")
    func partialByteOrderMark() {
        let outcome = interpret([[0xEF, 0xBB], Array("data: x\n\ndata: y\n\n".utf8)])
        #expect(outcome.events.map(\.data) == ["y"])
        let asValue = interpret([Array("data: ".utf8) + [0xEF, 0xBB] + Array("\n\n".utf8)])
        #expect(asValue.events.map(\.data) == ["\u{FFFD}"])
    }

    // MARK: - Lines

    @Test("lines end with CR, LF or CRLF", arguments: ["\r", "\n", "\r\n"])
    func lineEnds(end: String) {
        let body = "data: a\(end)data: b\(end)\(end)data: c\(end)\(end)"
        #expect(interpret(text: body).events.map(\.data) == ["a\nb", "c"])
    }

    @Test("line ends may be mixed in one stream")
    func mixedLineEnds() {
        let outcome = interpret(text: "data: a\rdata: b\ndata: c\r\n\rdata: d\n\r\n")
        #expect(outcome.events.map(\.data) == ["a\nb\nc", "d"])
    }

    @Test("a CRLF split between two chunks ends one line, not two")
    func splitCarriageReturnLineFeed() {
        let outcome = interpret(texts: ["data: a\r", "\ndata: b\r", "\n\r", "\n"])
        #expect(outcome.events.map(\.data) == ["a\nb"])
    }

    @Test("a CR at the end of a chunk followed by another CR ends two lines")
    func carriageReturnThenCarriageReturn() {
        let outcome = interpret(texts: ["data: a\r", "\rdata: b\r", "\r"])
        #expect(outcome.events.map(\.data) == ["a", "b"])
    }

    @Test("a line starting with a colon is a comment")
    func comments() {
        let outcome = interpret(text: ": hello\ndata: x\n:\n:data: y\n\n: only a comment\n\n")
        #expect(outcome.events.map(\.data) == ["x"])
    }

    // MARK: - Fields

    @Test("a line without a colon is a field with an empty value")
    func fieldWithoutColon() {
        #expect(interpret(text: "data\n\n").events == [ServerSentEvent(data: "")])
        #expect(interpret(text: "data\ndata\n\n").events.map(\.data) == ["\n"])
        #expect(interpret(text: "event\ndata: x\n\n").events.map(\.type) == ["message"])
    }

    @Test(
        "exactly one space after the colon is dropped",
        arguments: [
            ("data:x", "x"), ("data: x", "x"), ("data:  x", " x"), ("data:\tx", "\tx"),
            ("data: ", ""), ("data:", ""), ("data:x ", "x "), ("data: a:b", "a:b"),
        ]
    )
    func spaceAfterColon(line: String, data: String) {
        #expect(interpret(text: line + "\n\n").events == [ServerSentEvent(data: data)])
    }

    @Test("data lines are joined with LF and the last LF is removed")
    func dataLinesJoined() {
        let outcome = interpret(text: "data: a\ndata: b\ndata:\n\n")
        #expect(outcome.events.map(\.data) == ["a\nb\n"])
    }

    @Test("an event without data is not dispatched, but sets the last event ID")
    func eventWithoutData() {
        let outcome = interpret(text: "id: 1\nevent: ping\n\n")
        #expect(outcome.events.isEmpty)
        #expect(outcome.lastEventID == "1")
        #expect(
            interpret(text: "event: ping\n\ndata: x\n\n").events == [
                ServerSentEvent(data: "x", lastEventID: "")
            ]
        )
    }

    @Test("an empty event field means the type message")
    func emptyEventType() {
        #expect(interpret(text: "event:\ndata: x\n\n").events.map(\.type) == ["message"])
        #expect(interpret(text: "event: a\nevent:\ndata: x\n\n").events.map(\.type) == ["message"])
    }

    @Test("the event type is reset after each dispatch")
    func eventTypeReset() {
        let outcome = interpret(text: "event: tick\ndata: 1\n\ndata: 2\n\n")
        #expect(outcome.events.map(\.type) == ["tick", "message"])
    }

    @Test("an id holding NUL is ignored")
    func idWithNull() {
        let outcome = interpret(text: "id: 1\ndata: a\n\nid: 2\u{0}3\ndata: b\n\n")
        #expect(outcome.events.map(\.lastEventID) == ["1", "1"])
        #expect(outcome.lastEventID == "1")
    }

    @Test("an empty id resets the last event ID", arguments: ["id", "id:", "id: "])
    func emptyID(line: String) {
        let outcome = interpret(text: "\(line)\ndata: x\n\n", lastEventID: "41")
        #expect(outcome.events == [ServerSentEvent(data: "x", lastEventID: "")])
        #expect(outcome.lastEventID == "")
    }

    @Test("the last event ID is kept from one event and one connection to the next")
    func lastEventIDKept() {
        let outcome = interpret(text: "data: a\n\nid: 7\ndata: b\n\ndata: c\n\n", lastEventID: "6")
        #expect(outcome.events.map(\.lastEventID) == ["6", "7", "7"])
        #expect(outcome.lastEventID == "7")
    }

    @Test(
        "retry sets the reconnection time when its value is ASCII digits only",
        arguments: [
            ("retry: 1500", Duration.milliseconds(1500)), ("retry:0", .zero),
            ("retry: 007", .milliseconds(7)),
            ("retry: 99999999999999999999999", .milliseconds(Int64.max)),
        ]
    )
    func validRetry(line: String, time: Duration) {
        #expect(interpret(text: line + "\n").reconnectionTime == time)
    }

    @Test(
        "retry with anything but ASCII digits is ignored",
        arguments: [
            "retry", "retry:", "retry: ", "retry:  10", "retry: 10 ", "retry: 1.5", "retry: -1",
            "retry: +1", "retry: 15s", "retry: 1e3", "retry: \u{0661}", "retry: １",
        ]
    )
    func invalidRetry(line: String) {
        #expect(interpret(text: line + "\n").reconnectionTime == nil)
        #expect(interpret(text: "retry: 3\n\(line)\n").reconnectionTime == .milliseconds(3))
    }

    @Test("unknown fields are ignored")
    func unknownFields() {
        let outcome = interpret(text: "foo: bar\ndata: 1\nDataX: 2\nidentity: 3\ndata: 4\n\n")
        #expect(outcome.events == [ServerSentEvent(data: "1\n4")])
    }

    @Test("field names are case-sensitive", arguments: ["Data: x", "DATA: x", "Event: x", "ID: x"])
    func caseSensitiveNames(line: String) {
        let outcome = interpret(text: "\(line)\n\n")
        #expect(outcome.events.isEmpty)
        #expect(outcome.lastEventID == "")
    }

    // MARK: - The end of the body

    @Test("an unfinished event is not dispatched at the end of the body")
    func unfinishedEvent() {
        #expect(interpret(text: "data: a\n\ndata: b\n").events.map(\.data) == ["a"])
        #expect(interpret(text: "data: a\n\ndata: b").events.map(\.data) == ["a"])
        #expect(interpret(text: "id: 3\ndata: b\n").lastEventID == "")
    }

    @Test("finish readies the parser for the next body, keeping the ID and reconnection time")
    func finishResets() throws {
        var parser = EventStreamParser()
        _ = try parser.parse(Data("retry: 5\nid: 1\n\nevent: x\nid: 2\ndata: a\ndata: b".utf8))
        parser.finish()
        let events = try parser.parse(Data("data: c\n\n".utf8))
        #expect(events == [ServerSentEvent(data: "c", lastEventID: "1")])
        #expect(parser.reconnectionTime == .milliseconds(5))
    }

    @Test("a CR ending one body lets an LF start the next as a blank line")
    func finishForgetsCarriageReturn() throws {
        var parser = EventStreamParser()
        _ = try parser.parse(Data("data: a\r".utf8))
        parser.finish()
        #expect(try parser.parse(Data("data: b\n\n".utf8)).map(\.data) == ["b"])
        _ = try parser.parse(Data("data: c\r".utf8))
        parser.finish()
        #expect(try parser.parse(Data("\ndata: d\n\n".utf8)).map(\.data) == ["d"])
    }

    // MARK: - Limits

    @Test("a line up to the limit is accepted, its line end and a leading mark not counted")
    func lineAtLimit() {
        let outcome = interpret(
            texts: ["\u{FEFF}data:", " 1234\r", "\n\r\n"],
            maximumLineLength: 10
        )
        #expect(outcome.error == nil)
        #expect(outcome.events.map(\.data) == ["1234"])
    }

    @Test("a line longer than the limit throws lineTooLong")
    func lineTooLong() {
        let outcome = interpret(text: "data: 12345\n\n", maximumLineLength: 10)
        #expect(outcome.error == .lineTooLong(limit: 10))
        #expect(interpret(text: ": a long comment\n", maximumLineLength: 10).error != nil)
    }

    @Test("a line longer than the limit throws before its end arrives")
    func lineTooLongEarly() throws {
        var parser = EventStreamParser(maximumLineLength: 10)
        _ = try parser.parse(Data("data: 12".utf8))
        _ = try parser.parse(Data("34".utf8))
        #expect(throws: LiveStreamError.lineTooLong(limit: 10)) {
            try parser.parse(Data("5".utf8))
        }
        var single = EventStreamParser(maximumLineLength: 10)
        #expect(throws: LiveStreamError.lineTooLong(limit: 10)) {
            try single.parse(Data(repeating: UInt8(ascii: "a"), count: 11))
        }
    }

    @Test("an event's data past the limit throws eventTooLarge")
    func eventTooLarge() {
        let atLimit = interpret(text: "data: 12345\ndata: 6789\n\n", maximumLineLength: 11)
        #expect(atLimit.events.map(\.data) == ["12345\n6789"])
        let overLimit = interpret(
            text: "data: 1234\ndata: 1234\ndata: 12\n\n",
            maximumLineLength: 11
        )
        #expect(overLimit.error == .eventTooLarge(limit: 11))
        let manyEmptyLines = interpret(
            text: String(repeating: "data\n", count: 12),
            maximumLineLength: 10
        )
        #expect(manyEmptyLines.error == .eventTooLarge(limit: 10))
    }

    @Test("the limit error's description holds no text of the body")
    func errorDescription() {
        let error = interpret(text: "data: secret-token\n", maximumLineLength: 8).error
        #expect(error.map { "\($0)".contains("8") } == true)
        #expect(error.map { "\($0)".contains("secret") } == false)
    }

    // MARK: - Events and the API

    @Test("an event's description holds neither its data nor its ID")
    func eventDescription() {
        let event = ServerSentEvent(type: "tick", data: "secret-data", lastEventID: "secret-id")
        let description = "\(event)"
        #expect(description.contains("tick"))
        #expect(description.contains("11 bytes"))
        #expect(!description.contains("secret"))
        #expect("\(ServerSentEvent(data: ""))".contains("without an ID"))
    }

    @Test("bytes read in place parse as the same bytes in Data")
    func rawBytes() throws {
        var parser = EventStreamParser()
        let events = try Array("id: 2\ndata: x\n\n".utf8).withUnsafeBytes { bytes in
            try parser.parse(bytes)
        }
        #expect(events == [ServerSentEvent(data: "x", lastEventID: "2")])
    }

    // MARK: - Vectors of the kinds the web platform tests check

    @Test("streams of every kind dispatch the events the standard says", arguments: Self.vectors)
    func vector(_ vector: Vector) {
        let outcome = interpret([vector.body])
        #expect(outcome.events == vector.events, "\(vector.name)")
        #expect(outcome.lastEventID == vector.lastEventID, "\(vector.name)")
        #expect(outcome.reconnectionTime == vector.reconnectionTime, "\(vector.name)")
        #expect(outcome == Reference.interpret(vector.body), "\(vector.name)")
    }

    // MARK: - Splits

    @Test("a body split at any byte dispatches what it does whole", arguments: Self.vectors)
    func everySplit(_ vector: Vector) {
        let whole = interpret([vector.body])
        for cut in 0...vector.body.count {
            let split = interpret([Array(vector.body[..<cut]), Array(vector.body[cut...])])
            #expect(split == whole, "\(vector.name) cut at \(cut)")
        }
        #expect(interpret(vector.body.map { [$0] }) == whole, "\(vector.name) byte by byte")
    }

    @Test("random bodies, split at random, dispatch what the reference reading does")
    func randomSplits() {
        var generator = SeededGenerator(seed: 0x5E5_0001)
        for index in 0..<SplitBodies.count {
            let body = Self.randomBody(using: &generator)
            let expected = Reference.interpret(body, lastEventID: "start")
            let whole = interpret([body], lastEventID: "start")
            let split = interpret(
                SplitBodies.chunks(of: body, using: &generator),
                lastEventID: "start"
            )
            #expect(whole == expected, "case \(index): \(body)")
            #expect(split == expected, "case \(index): \(body)")
            // String equality is canonical equivalence: the scalars must be the same too.
            #expect(
                split.events.map { Array($0.data.unicodeScalars) }
                    == expected.events.map { Array($0.data.unicodeScalars) },
                "case \(index): \(body)"
            )
            if split != expected { return }
        }
    }

    @Test("random bodies past the limits throw as they do whole")
    func randomSplitsWithLimits() {
        var generator = SeededGenerator(seed: 0x5E5_0002)
        for index in 0..<SplitBodies.count {
            let body = Self.randomBody(using: &generator)
            let limit = Int.random(in: 4...40, using: &generator)
            let whole = interpret([body], maximumLineLength: limit)
            let split = interpret(
                SplitBodies.chunks(of: body, using: &generator),
                maximumLineLength: limit
            )
            #expect(split.error == whole.error, "case \(index): \(body)")
            if whole.error == nil {
                #expect(split == whole, "case \(index): \(body)")
            }
        }
    }
}

// MARK: - Helpers

extension EventStreamParserTests {
    /// What a parser made of a body: its events, and its state after the body's end or
    /// the error that stopped it.
    struct Outcome: Equatable {
        var events: [ServerSentEvent] = []
        var lastEventID: String
        var reconnectionTime: Duration?
        var error: LiveStreamError?
    }

    /// Parses `chunks` in order, then ends the body.
    func interpret(
        _ chunks: [[UInt8]],
        maximumLineLength: Int = 1 << 20,
        lastEventID: String = ""
    ) -> Outcome {
        var parser = EventStreamParser(
            maximumLineLength: maximumLineLength,
            lastEventID: lastEventID
        )
        var events: [ServerSentEvent] = []
        for chunk in chunks {
            do {
                events += try parser.parse(Data(chunk))
            } catch {
                return Outcome(events: events, lastEventID: parser.lastEventID, error: error)
            }
        }
        parser.finish()
        return Outcome(
            events: events,
            lastEventID: parser.lastEventID,
            reconnectionTime: parser.reconnectionTime
        )
    }

    /// Parses `text` as one chunk, then ends the body.
    func interpret(text: String, maximumLineLength: Int = 1 << 20, lastEventID: String = "")
        -> Outcome
    {
        interpret(
            [Array(text.utf8)],
            maximumLineLength: maximumLineLength,
            lastEventID: lastEventID
        )
    }

    /// Parses each of `texts` as a chunk, then ends the body.
    func interpret(texts: [String], maximumLineLength: Int = 1 << 20) -> Outcome {
        interpret(texts.map { Array($0.utf8) }, maximumLineLength: maximumLineLength)
    }

    /// A body of random lines: known and unknown fields, comments and blank lines, with
    /// multi-byte characters, invalid bytes, NULs and byte order marks, ended with CR,
    /// LF or CRLF, and sometimes not ended at all.
    static func randomBody(using generator: inout SeededGenerator) -> [UInt8] {
        let names = ["data", "data", "data", "event", "id", "retry", "Data", "foo", "", "da"]
        let separators = [":", ": ", ":  ", "", ":\t"]
        let pieces: [[UInt8]] = [
            Array("x".utf8), Array("hello".utf8), Array("42".utf8), Array("é".utf8),
            Array("😀".utf8), Array("日本".utf8), Array(":".utf8), Array(" ".utf8),
            Array("99999999999999999999".utf8), [0], [0xFF], [0xC3], [0xE2, 0x82],
            [0xED, 0xA0, 0x80], [0xF0, 0x9F, 0x98], [0xEF, 0xBB, 0xBF], [0xEF, 0xBB],
        ]
        let lineEnds = ["\n", "\r", "\r\n"]
        var body: [UInt8] = []
        switch Int.random(in: 0..<8, using: &generator) {
        case 0: body += [0xEF, 0xBB, 0xBF]
        case 1: body += [0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF]
        case 2: body += [0xEF, 0xBB]
        default: break
        }
        for _ in 0..<Int.random(in: 1...40, using: &generator) {
            switch Int.random(in: 0..<10, using: &generator) {
            case 0..<3:
                break  // a blank line
            case 3:
                body += Array(":".utf8) + pieces.randomElement(using: &generator)!
            default:
                body += Array(names.randomElement(using: &generator)!.utf8)
                body += Array(separators.randomElement(using: &generator)!.utf8)
                for _ in 0..<Int.random(in: 0...3, using: &generator) {
                    body += pieces.randomElement(using: &generator)!
                }
            }
            body += Array(lineEnds.randomElement(using: &generator)!.utf8)
        }
        if Bool.random(using: &generator) {
            body += Array("data: unfinished".utf8)
        }
        return body
    }
}

// MARK: - Vectors

extension EventStreamParserTests {
    /// A body and what the standard says it dispatches.
    struct Vector: Sendable, CustomTestStringConvertible {
        var name: String
        var body: [UInt8]
        var events: [ServerSentEvent]
        var lastEventID = ""
        var reconnectionTime: Duration? = nil

        var testDescription: String { name }

        init(
            _ name: String,
            _ body: String,
            _ events: [ServerSentEvent],
            lastEventID: String = "",
            reconnectionTime: Duration? = nil
        ) {
            self.init(
                name,
                bytes: Array(body.utf8),
                events,
                lastEventID: lastEventID,
                reconnectionTime: reconnectionTime
            )
        }

        init(
            _ name: String,
            bytes: [UInt8],
            _ events: [ServerSentEvent],
            lastEventID: String = "",
            reconnectionTime: Duration? = nil
        ) {
            self.name = name
            body = bytes
            self.events = events
            self.lastEventID = lastEventID
            self.reconnectionTime = reconnectionTime
        }
    }

    static let vectors: [Vector] = [
        Vector(
            "byte order mark",
            "\u{FEFF}data: 1\n\n\u{FEFF}data: 2\n\ndata: 3\n\n",
            [ServerSentEvent(data: "1"), ServerSentEvent(data: "3")]
        ),
        Vector(
            "two byte order marks",
            "\u{FEFF}\u{FEFF}data: 1\n\ndata: 2\n\n",
            [ServerSentEvent(data: "2")]
        ),
        Vector(
            "comments",
            ":\n: one\ndata: a\n:two\ndata: b\n:" + String(repeating: "z", count: 90) + "\n\n",
            [ServerSentEvent(data: "a\nb")]
        ),
        Vector(
            "data before the final empty line",
            "data: 1\n\ndata: 2\n",
            [ServerSentEvent(data: "1")]
        ),
        Vector(
            "data fields",
            "data:\n\ndata\ndata\n\ndata:test\n\n",
            [ServerSentEvent(data: ""), ServerSentEvent(data: "\n"), ServerSentEvent(data: "test")]
        ),
        Vector(
            "empty event field",
            "event: \ndata: x\n\n",
            [ServerSentEvent(data: "x")]
        ),
        Vector(
            "event field",
            "event: ping\ndata: 1\n\ndata: 2\n\n",
            [ServerSentEvent(type: "ping", data: "1"), ServerSentEvent(data: "2")]
        ),
        Vector(
            "id field",
            "id: 1\ndata: a\n\ndata: b\n\nid: \ndata: c\n\n",
            [
                ServerSentEvent(data: "a", lastEventID: "1"),
                ServerSentEvent(data: "b", lastEventID: "1"),
                ServerSentEvent(data: "c"),
            ]
        ),
        Vector(
            "id field without data",
            "id: 1\n\nid: 2\nid: 3\ndata: x\n\nid: 4\n",
            [ServerSentEvent(data: "x", lastEventID: "3")],
            lastEventID: "3"
        ),
        Vector(
            "id field holding NUL",
            "id: 1\ndata: a\n\nid: 2\u{0}\ndata: b\n\n",
            [
                ServerSentEvent(data: "a", lastEventID: "1"),
                ServerSentEvent(data: "b", lastEventID: "1"),
            ],
            lastEventID: "1"
        ),
        Vector(
            "field parsing",
            "data:\u{0}\ndata:  2\rData:1\rdata\u{0}:2\rdata:1\r:\u{0}\rdata:\u{0}x\r\r",
            [ServerSentEvent(data: "\u{0}\n 2\n1\n\u{0}x")]
        ),
        Vector(
            "retry field",
            "retry: 1000\ndata: x\n\n",
            [ServerSentEvent(data: "x")],
            reconnectionTime: .milliseconds(1000)
        ),
        Vector(
            "bogus retry field",
            "retry: 1000\nretry: 1000x\ndata: x\n\n",
            [ServerSentEvent(data: "x")],
            reconnectionTime: .milliseconds(1000)
        ),
        Vector("empty retry field", "retry\ndata: x\n\n", [ServerSentEvent(data: "x")]),
        Vector(
            "unknown field",
            "data: 1\nfoo: bar\ndata: 2\n\n",
            [ServerSentEvent(data: "1\n2")]
        ),
        Vector(
            "leading space",
            "data:\t1\ndata: 2\ndata:  3\n\n",
            [ServerSentEvent(data: "\t1\n2\n 3")]
        ),
        Vector(
            "a body of another type",
            "<!DOCTYPE html>\n<p>data: x</p>\n\n{\"data\": 1}\n\n",
            []
        ),
        Vector(
            "newlines",
            "data: a\rdata: b\ndata: c\r\n\rdata: d\r\n\r\ndata: e\n\r",
            [
                ServerSentEvent(data: "a\nb\nc"), ServerSentEvent(data: "d"),
                ServerSentEvent(data: "e"),
            ]
        ),
        Vector(
            "NUL character",
            "data: \u{0}\n\n",
            [ServerSentEvent(data: "\u{0}")]
        ),
        Vector(
            "UTF-8",
            "data: ok…\ndata: 日本語 😀\n\n",
            [ServerSentEvent(data: "ok…\n日本語 😀")]
        ),
        Vector(
            "invalid UTF-8",
            bytes: Array("data: a".utf8) + [0xC3, 0x28, 0xFF] + Array("\r\n\r\n".utf8),
            [ServerSentEvent(data: "a\u{FFFD}(\u{FFFD}")]
        ),
    ]
}

// MARK: - Reference

/// The standard's steps, read as literally as possible, on the whole body decoded at
/// once: slow, and obviously right.
private enum Reference {
    /// The events `body` dispatches, and the state its end leaves.
    static func interpret(
        _ body: [UInt8],
        lastEventID: String = ""
    ) -> EventStreamParserTests.Outcome {
        var scalars = Array(String(decoding: body, as: UTF8.self).unicodeScalars)
        if scalars.first == "\u{FEFF}" {
            scalars.removeFirst()
        }
        var outcome = EventStreamParserTests.Outcome(lastEventID: lastEventID)
        var data: [Unicode.Scalar] = []
        var type: [Unicode.Scalar] = []
        var lastEventIDBuffer = Array(lastEventID.unicodeScalars)
        for line in lines(of: scalars) {
            if line.isEmpty {
                outcome.lastEventID = string(lastEventIDBuffer)
                if data.isEmpty {
                    type = []
                    continue
                }
                if data.last == "\n" {
                    data.removeLast()
                }
                outcome.events.append(
                    ServerSentEvent(
                        type: type.isEmpty ? "message" : string(type),
                        data: string(data),
                        lastEventID: outcome.lastEventID
                    )
                )
                data = []
                type = []
                continue
            }
            if line.first == ":" {
                continue
            }
            var name = line[...]
            var value: ArraySlice<Unicode.Scalar> = []
            if let colon = line.firstIndex(of: ":") {
                name = line[..<colon]
                value = line[(colon + 1)...]
                if value.first == " " {
                    value.removeFirst()
                }
            }
            switch string(Array(name)) {
            case let name where name.unicodeScalars.elementsEqual("data".unicodeScalars):
                data += value + ["\n"]
            case let name where name.unicodeScalars.elementsEqual("event".unicodeScalars):
                type = Array(value)
            case let name where name.unicodeScalars.elementsEqual("id".unicodeScalars):
                if !value.contains("\u{0}") {
                    lastEventIDBuffer = Array(value)
                }
            case let name where name.unicodeScalars.elementsEqual("retry".unicodeScalars):
                if !value.isEmpty, value.allSatisfy({ ("0"..."9").contains($0) }) {
                    outcome.reconnectionTime = .milliseconds(Int64(string(Array(value))) ?? .max)
                }
            default:
                break
            }
        }
        return outcome
    }

    /// The lines that end with CRLF, LF or CR; an unfinished last line is left out.
    static func lines(of scalars: [Unicode.Scalar]) -> [[Unicode.Scalar]] {
        var lines: [[Unicode.Scalar]] = []
        var line: [Unicode.Scalar] = []
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            index += 1
            if scalar == "\r" || scalar == "\n" {
                lines.append(line)
                line = []
                if scalar == "\r", index < scalars.count, scalars[index] == "\n" {
                    index += 1
                }
            } else {
                line.append(scalar)
            }
        }
        return lines
    }

    /// The text of `scalars`, scalar by scalar.
    static func string(_ scalars: [Unicode.Scalar]) -> String {
        var text = ""
        text.unicodeScalars.append(contentsOf: scalars)
        return text
    }
}
