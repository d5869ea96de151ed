import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The libFuzzer entry point: the first byte picks the parser, the rest is its input.
///
/// 0: `LinkHeader`, 1: `RetryAfter` and `CacheDirectives` (and the HTTP dates behind
/// them), 2: `PageCursor`
/// through `JSONDecoder`, 3: `LinkHeader` of a malformed value followed by a valid
/// `rel="next"`, which must be found, 4: `EventStreamParser` and 5: `JSONLinesParser`,
/// the input split in two where its first byte says, which must read as in one piece.
/// Any crash, hang or slow input is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    guard let selector = bytes.first else { return 0 }
    let input = Data(bytes.dropFirst())
    let text = String(decoding: input, as: UTF8.self)
    switch selector % 6 {
    case 0:
        let header = LinkHeader(
            text,
            relativeTo: URL(string: "https://api.example.com/repos/o/r/issues?page=2")
        )
        for link in header.links {
            require(!link.relations.contains(""), "empty relation type")
            require(link.url.scheme != nil, "unresolved target")
        }
    case 1:
        if case .seconds(let seconds) = RetryAfter(text) {
            require(seconds >= 0, "negative Retry-After")
        }
        let fields = ["Cache-Control": text, "Expires": text, "Age": text, "Pragma": text]
        if let response = HTTPURLResponse(
            url: URL(string: "https://api.example.com/a")!,
            statusCode: 200,
            httpVersion: "HTTP/1.1",
            headerFields: fields
        ) {
            let lifetime = CacheDirectives(response: response, receivedAt: Date())
                .freshnessLifetime
            require(lifetime.map { $0 >= .zero } ?? true, "negative freshness")
        }
    case 2:
        _ = try? JSONDecoder().decode([PageCursor?].self, from: input)
    case 4:
        let split = input.first.map { Int($0) % (input.count + 1) } ?? 0
        var whole = EventStreamParser(maximumLineLength: 64)
        var parts = EventStreamParser(maximumLineLength: 64)
        let once = try? whole.parse(input)
        let first = try? parts.parse(input.prefix(split))
        let second = first == nil ? nil : try? parts.parse(input.dropFirst(split))
        if let once, let first, let second {
            require(once == first + second, "a split changed the events")
            require(whole.lastEventID == parts.lastEventID, "a split changed the last event ID")
            require(
                whole.reconnectionTime == parts.reconnectionTime,
                "a split changed the reconnection time"
            )
        }
        for event in once ?? [] {
            require(!event.type.isEmpty, "an event without a type")
            // Scalars, not Characters: a CR before an LF is one Character with it.
            require(!event.data.unicodeScalars.contains("\r"), "an event's data holds a CR")
        }
    case 5:
        let split = input.first.map { Int($0) % (input.count + 1) } ?? 0
        var whole = JSONLinesParser(maximumLineLength: 64)
        var parts = JSONLinesParser(maximumLineLength: 64)
        let once = (try? whole.parse(input)).map { $0 + whole.finish() }
        let first = try? parts.parse(input.prefix(split))
        let second = first == nil ? nil : try? parts.parse(input.dropFirst(split))
        if let once, let first, let second {
            require(once == first + second + parts.finish(), "a split changed the lines")
        }
        for line in once ?? [] {
            require(!line.contains(UInt8(ascii: "\n")), "a line holds an LF")
            require(line.count <= 64, "a line over the limit")
        }
    default:
        // Quotes are left out, since an unterminated quoted string may rightly hold the
        // rest; byte by byte, as the parser reads: a quote followed by a combining mark
        // is one Character, which a filter over Characters would keep.
        let malformed = String(
            decoding: input.filter { $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") },
            as: UTF8.self
        )
        let next = URL(string: "https://api.example.com/next")!
        let header = LinkHeader(malformed + #", <https://api.example.com/next>; rel="next""#)
        require(
            header.links.contains { $0.url == next && $0.relations.contains("next") },
            "a malformed value hid the next link"
        )
    }
    return 0
}

/// Stops the run, naming `finding`, when `condition` is false: unlike `precondition`,
/// the message is printed in an optimized build too.
func require(_ condition: @autoclosure () -> Bool, _ finding: String) {
    if !condition() {
        fatalError(finding)
    }
}

/// Stands for the kit's error type in the fuzzing module, which compiles the parsers
/// alone: `LiveStreamError` wraps one, and no parser makes one.
public struct WebserviceError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Says what it stands for.
    public var description: String { "a webservice error" }
}
