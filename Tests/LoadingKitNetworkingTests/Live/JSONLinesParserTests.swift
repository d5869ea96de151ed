import Foundation
import LoadingKitNetworking
import Testing

@Suite("JSONLinesParser", .timeLimit(.minutes(1)))
struct JSONLinesParserTests {
    @Test("each line ending with LF is one value's bytes")
    func linesEndWithLineFeed() {
        let outcome = interpret(texts: [#"{"a":1}"# + "\n" + #"[2]"# + "\n"])
        #expect(outcome.lines == [#"{"a":1}"#, "[2]"])
    }

    @Test("one CR before the LF is dropped", arguments: [("1\r\n", "1"), ("1\r\r\n", "1\r")])
    func carriageReturnBeforeLineFeed(text: String, line: String) {
        #expect(interpret(texts: [text]).lines == [line])
    }

    @Test("a CR alone ends no line")
    func carriageReturnAlone() {
        #expect(interpret(texts: ["1\r2\n"]).lines == ["1\r2"])
    }

    @Test("a CRLF split between two chunks ends one line")
    func splitCarriageReturnLineFeed() {
        #expect(interpret(texts: ["1\r", "\n2\r", "\n"]).lines == ["1", "2"])
    }

    @Test(
        "lines of only spaces, tabs and CRs are skipped",
        arguments: ["\n", " \n", "\t\n", "\r\n", " \t\r \r\n", "\r\r\n"]
    )
    func blankLines(blank: String) {
        #expect(interpret(texts: ["1\n" + blank + "2\n" + blank]).lines == ["1", "2"])
    }

    @Test("a line's own spaces are kept")
    func spacesKept() {
        #expect(interpret(texts: [" {} \n\t[]\t\n"]).lines == [" {} ", "\t[]\t"])
    }

    @Test("bytes pass through undecoded, also when a chunk ends inside a character")
    func bytesUndecoded() {
        let line: [UInt8] = Array(#""😀""#.utf8) + [0xFF, 0xC3]
        let outcome = interpret([Array(line[..<2]), Array(line[2...]) + [0x0A]])
        #expect(outcome.data == [Data(line)])
    }

    @Test(
        "the last line may lack its LF",
        arguments: [("1\n2", ["1", "2"]), ("1\n2\r", ["1", "2"])]
    )
    func lastLineWithoutLineFeed(text: String, lines: [String]) {
        #expect(interpret(texts: [text]).lines == lines)
    }

    @Test("a blank last line without LF is skipped", arguments: ["", " ", "\t\r", "\r"])
    func blankLastLine(text: String) {
        #expect(interpret(texts: ["1\n" + text]).lines == ["1"])
    }

    @Test("finish readies the parser for another body")
    func finishResets() throws {
        var parser = JSONLinesParser()
        _ = try parser.parse(Data("1\n2".utf8))
        #expect(parser.finish() == [Data("2".utf8)])
        #expect(parser.finish() == [])
        #expect(try parser.parse(Data("3\n".utf8)) == [Data("3".utf8)])
    }

    @Test("a line up to the limit is accepted, its CRLF not counted")
    func lineAtLimit() {
        let outcome = interpret(texts: ["12", "34\r", "\n1234\r"], maximumLineLength: 4)
        #expect(outcome.error == nil)
        #expect(outcome.lines == ["1234", "1234"])
    }

    @Test(
        "a line longer than the limit throws lineTooLong",
        arguments: ["12345\n", "1234\r\r\n", "12345", "1234 \n"]
    )
    func lineTooLong(text: String) {
        #expect(interpret(texts: [text], maximumLineLength: 4).error == .lineTooLong(limit: 4))
    }

    @Test("a line longer than the limit throws before its end arrives")
    func lineTooLongEarly() throws {
        var parser = JSONLinesParser(maximumLineLength: 4)
        _ = try parser.parse(Data("12".utf8))
        _ = try parser.parse(Data("34\r".utf8))
        #expect(throws: LiveStreamError.lineTooLong(limit: 4)) {
            try parser.parse(Data("5".utf8))
        }
    }

    @Test("bytes read in place parse as the same bytes in Data")
    func rawBytes() throws {
        var parser = JSONLinesParser()
        let lines = try Array("1\n\n2\n".utf8).withUnsafeBytes { bytes in
            try parser.parse(bytes)
        }
        #expect(lines == [Data("1".utf8), Data("2".utf8)])
    }

    // MARK: - Splits

    @Test("a body split at any byte gives the lines it does whole", arguments: Self.vectors)
    func everySplit(body: String) {
        let bytes = Array(body.utf8)
        let whole = interpret([bytes])
        #expect(whole == Reference.interpret(bytes))
        for cut in 0...bytes.count {
            let split = interpret([Array(bytes[..<cut]), Array(bytes[cut...])])
            #expect(split == whole, "cut at \(cut)")
        }
        #expect(interpret(bytes.map { [$0] }) == whole, "byte by byte")
    }

    @Test("random bodies, split at random, give the lines the reference reading does")
    func randomSplits() {
        var generator = SeededGenerator(seed: 0x1D5_0001)
        for index in 0..<SplitBodies.count {
            let body = Self.randomBody(using: &generator)
            let limit = Int.random(in: 0...40, using: &generator)
            let expected = Reference.interpret(body, maximumLineLength: limit)
            let whole = interpret([body], maximumLineLength: limit)
            let split = interpret(
                SplitBodies.chunks(of: body, using: &generator),
                maximumLineLength: limit
            )
            // The lines of a chunk that throws are not returned: only the errors compare.
            #expect(whole.error == expected.error, "case \(index): \(body)")
            #expect(split.error == expected.error, "case \(index): \(body)")
            if expected.error == nil {
                #expect(whole == expected, "case \(index): \(body)")
                #expect(split == expected, "case \(index): \(body)")
            }
        }
    }
}

// MARK: - Helpers

extension JSONLinesParserTests {
    /// What a parser made of a body: its lines, or the error that stopped it.
    struct Outcome: Equatable {
        var data: [Data] = []
        var error: LiveStreamError?

        /// The lines as text.
        var lines: [String] { data.map { String(decoding: $0, as: UTF8.self) } }
    }

    /// Parses `chunks` in order, then ends the body.
    func interpret(_ chunks: [[UInt8]], maximumLineLength: Int = 1 << 20) -> Outcome {
        var parser = JSONLinesParser(maximumLineLength: maximumLineLength)
        var outcome = Outcome()
        for chunk in chunks {
            do {
                outcome.data += try parser.parse(Data(chunk))
            } catch {
                outcome.error = error
                return outcome
            }
        }
        outcome.data += parser.finish()
        return outcome
    }

    /// Parses each of `texts` as a chunk, then ends the body.
    func interpret(texts: [String], maximumLineLength: Int = 1 << 20) -> Outcome {
        interpret(texts.map { Array($0.utf8) }, maximumLineLength: maximumLineLength)
    }

    static let vectors = [
        "1\n2\n", "1\r\n2\r\n", "\n\n1\n \n\t\r\n2", "{\"a\": \"é😀\"}\r\n[1,\r2]\r", "\r\r\n\r",
        " 1 \n\n", "",
    ]

    /// A body of random lines: JSON, blanks, multi-byte characters and invalid bytes,
    /// ended with LF, CRLF or a CR that ends nothing, and sometimes not ended at all.
    static func randomBody(using generator: inout SeededGenerator) -> [UInt8] {
        let pieces: [[UInt8]] = [
            Array("{\"a\":1}".utf8), Array("[1,2]".utf8), Array("\"é😀\"".utf8), Array(" ".utf8),
            Array("\t".utf8), Array("\r".utf8), Array("\r\r".utf8), [0xFF], [0xE2, 0x82], [0],
        ]
        let lineEnds = ["\n", "\r\n", "\r"]
        var body: [UInt8] = []
        for _ in 0..<Int.random(in: 0...30, using: &generator) {
            for _ in 0..<Int.random(in: 0...4, using: &generator) {
                body += pieces.randomElement(using: &generator)!
            }
            body += Array(lineEnds.randomElement(using: &generator)!.utf8)
        }
        if Bool.random(using: &generator) {
            body += pieces.randomElement(using: &generator)!
        }
        return body
    }
}

// MARK: - Reference

/// NDJSON read from the whole body at once: slow, and obviously right.
private enum Reference {
    /// The lines of `body`, or the error for the first line over the limit.
    static func interpret(
        _ body: [UInt8],
        maximumLineLength: Int = 1 << 20
    ) -> JSONLinesParserTests.Outcome {
        var outcome = JSONLinesParserTests.Outcome()
        for var line in body.split(separator: 0x0A, omittingEmptySubsequences: false) {
            if line.last == 0x0D {
                line.removeLast()
            }
            if line.count > maximumLineLength {
                outcome.error = .lineTooLong(limit: maximumLineLength)
                return outcome
            }
            if !line.allSatisfy({ [0x20, 0x09, 0x0D].contains($0) }) {
                outcome.data.append(Data(line))
            }
        }
        return outcome
    }
}
