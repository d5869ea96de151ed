import Foundation

/// A single-pass scanner over the bytes of `Link` field values.
///
/// Grammar (RFC 8288 §3): `link-value = "<" URI-Reference ">" *( OWS ";" OWS
/// link-param )`, `link-param = token BWS [ "=" BWS ( token / quoted-string ) ]`,
/// values separated by commas. A malformed value is skipped up to the next comma
/// followed by `<`, where the next value can start, so one bad value never hides
/// the ones after it; a trailing `;` is accepted. The index only moves forward, so
/// each byte is looked at a bounded number of times.
struct LinkHeaderParser {
    private(set) var links: [LinkHeader.Link] = []
    /// How many link values were malformed and left out.
    private(set) var malformedCount = 0
    private let base: URL?
    private var bytes: [UInt8] = []
    private var index = 0
    /// Whether a quoted string ran to the end unterminated: no quote closes after it,
    /// so every later one fails at once instead of scanning to the end again.
    private var quotesExhausted = false

    init(base: URL?) {
        self.base = base
    }

    mutating func parse(_ fieldValue: String) {
        // RFC 9110 §5.5: a CR, LF or NUL in a field value — a folded line — is read
        // as a space.
        bytes = fieldValue.utf8.map { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 ? .space : $0 }
        index = 0
        quotesExhausted = false
        while true {
            skip(while: { $0 == .comma || $0.isWhitespace })
            guard index < bytes.count else { return }
            if let link = parseLinkValue() {
                links.append(link)
            } else {
                malformedCount += 1
                if peek != .lessThan {
                    skipToNextLinkValue()
                }
            }
        }
    }

    // MARK: - Link values

    /// Parses one link value; `nil` when it is malformed. A `<` inside a target (which
    /// a URI cannot hold) means the target was never closed: parsing stops there, so
    /// that the next value can start at it.
    private mutating func parseLinkValue() -> LinkHeader.Link? {
        guard peek == .lessThan else { return nil }
        index += 1
        let start = index
        skip(while: { $0 != .greaterThan && $0 != .lessThan })
        guard peek == .greaterThan else { return nil }
        let target = String(decoding: bytes[start..<index], as: UTF8.self)
        index += 1
        let parametersStart = index
        let exhaustedBefore = quotesExhausted
        guard let parameters = parseParameters() else {
            // An unterminated quote swallowed the rest: the values after it are
            // looked for from where the parameters began (once, so still linear).
            if quotesExhausted && !exhaustedBefore {
                index = parametersStart
            }
            return nil
        }
        guard let url = resolve(target) else { return nil }
        let relations =
            parameters["rel"].map { rel in
                rel.lowercased().split(whereSeparator: \.isWhitespace).map(String.init)
            } ?? []
        return LinkHeader.Link(url: url, relations: relations, parameters: parameters)
    }

    /// Parses `; name=value` pairs up to the next comma or the end; `nil` when they
    /// are malformed.
    private mutating func parseParameters() -> [String: String]? {
        var parameters: [String: String] = [:]
        while true {
            skip(while: \.isWhitespace)
            guard let byte = peek, byte != .comma else { return parameters }
            guard byte == .semicolon else { return nil }
            index += 1
            skip(while: \.isWhitespace)
            let name = token().lowercased()
            guard !name.isEmpty else {
                // A trailing `;`, before the next value or the end, is tolerated.
                return peek == nil || peek == .comma ? parameters : nil
            }
            skip(while: \.isWhitespace)
            var value = ""
            if peek == .equals {
                index += 1
                skip(while: \.isWhitespace)
                if peek == .quote {
                    guard let quoted = quotedString() else { return nil }
                    value = quoted
                } else {
                    value = token()
                }
            }
            if parameters[name] == nil {
                parameters[name] = value
            }
        }
    }

    private func resolve(_ target: String) -> URL? {
        let trimmed = target.trimmingCharacters(in: .whitespaces)
        guard let url = URL(string: trimmed, relativeTo: base) else { return nil }
        return url.absoluteURL
    }

    // MARK: - Lexing

    private var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skip(while predicate: (UInt8) -> Bool) {
        while index < bytes.count, predicate(bytes[index]) {
            index += 1
        }
    }

    private mutating func token() -> String {
        let start = index
        skip(while: \.isTokenCharacter)
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    /// Reads a quoted string with backslash escapes; `nil` when it is unterminated.
    private mutating func quotedString() -> String? {
        guard !quotesExhausted else { return nil }
        index += 1
        var value: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case .quote:
                return String(decoding: value, as: UTF8.self)
            case .backslash where index < bytes.count:
                value.append(bytes[index])
                index += 1
            default:
                value.append(byte)
            }
        }
        quotesExhausted = true
        return nil
    }

    /// Moves to the next comma that is followed (after white space) by `<`: where the
    /// next link value can start. Quotes are not honoured here: the value being
    /// skipped is malformed, and an unterminated quote in it must not hide the rest.
    private mutating func skipToNextLinkValue() {
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            guard byte == .comma else { continue }
            skip(while: \.isWhitespace)
            if peek == .lessThan {
                return
            }
        }
    }
}

extension UInt8 {
    fileprivate static let space = UInt8(ascii: " ")
    fileprivate static let comma = UInt8(ascii: ",")
    fileprivate static let semicolon = UInt8(ascii: ";")
    fileprivate static let equals = UInt8(ascii: "=")
    fileprivate static let quote = UInt8(ascii: "\"")
    fileprivate static let backslash = UInt8(ascii: "\\")
    fileprivate static let lessThan = UInt8(ascii: "<")
    fileprivate static let greaterThan = UInt8(ascii: ">")

    fileprivate var isWhitespace: Bool { self == 0x20 || self == 0x09 }

    /// RFC 9110 `tchar`.
    fileprivate var isTokenCharacter: Bool {
        switch self {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"),
            UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"),
            UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }
}
