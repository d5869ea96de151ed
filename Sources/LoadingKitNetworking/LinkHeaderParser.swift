import Foundation

/// A single-pass scanner over the bytes of `Link` field values.
///
/// Grammar (RFC 8288 §3): `link-value = "<" URI-Reference ">" *( OWS ";" OWS
/// link-param )`, `link-param = token BWS [ "=" BWS ( token / quoted-string ) ]`,
/// values separated by commas. Each byte is looked at a bounded number of times.
struct LinkHeaderParser {
    private(set) var links: [LinkHeader.Link] = []
    private let base: URL?
    private var bytes: [UInt8] = []
    private var index = 0

    init(base: URL?) {
        self.base = base
    }

    mutating func parse(_ fieldValue: String) {
        bytes = Array(fieldValue.utf8)
        index = 0
        while true {
            skip(while: { $0 == .comma || $0.isWhitespace })
            guard index < bytes.count else { return }
            if let link = parseLinkValue() {
                links.append(link)
            } else {
                skipPastTopLevelComma()
            }
        }
    }

    // MARK: - Link values

    /// Parses one link value; `nil` when it is malformed.
    private mutating func parseLinkValue() -> LinkHeader.Link? {
        guard peek == .lessThan else { return nil }
        index += 1
        let start = index
        skip(while: { $0 != .greaterThan })
        guard index < bytes.count else { return nil }
        let target = String(decoding: bytes[start..<index], as: UTF8.self)
        index += 1
        guard let parameters = parseParameters(), let url = resolve(target) else { return nil }
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
            guard !name.isEmpty else { return nil }
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
        return nil
    }

    /// Moves past the next comma that is outside a quoted string and a `<…>` target,
    /// or to the end.
    private mutating func skipPastTopLevelComma() {
        var inQuotes = false
        var inTarget = false
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case .backslash where inQuotes: index += 1
            case .quote where !inTarget: inQuotes.toggle()
            case .lessThan where !inQuotes: inTarget = true
            case .greaterThan where !inQuotes: inTarget = false
            case .comma where !inQuotes && !inTarget: return
            default: break
            }
        }
    }
}

extension UInt8 {
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
