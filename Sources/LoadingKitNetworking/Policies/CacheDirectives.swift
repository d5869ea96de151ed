import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a response says about keeping its value and reusing it without asking the
/// server again, read from `Cache-Control` (RFC 9111), `Expires`, `Date`, `Age` and,
/// without `Cache-Control`, `Pragma: no-cache`.
///
/// ```swift
/// let directives = CacheDirectives(response: response, receivedAt: Date())
/// if directives.forbidsStoring { /* keep no copy, send no validators later */ }
/// directives.freshnessLifetime  // max-age − Age, or Expires − Date; nil when unsaid
/// ```
///
/// A ``Webservice`` stores nothing of a `no-store` response; a loader whose content
/// ``requiresRevalidation`` or outlived its ``freshnessLifetime`` loads it again
/// when asked to load if needed — unless the loader sets a `maxAge` of its own, which
/// wins.
public struct CacheDirectives: Sendable, Hashable {
    /// `no-store`: the value must not be kept.
    public var forbidsStoring: Bool
    /// `no-cache`: the value must be revalidated before every reuse.
    public var requiresRevalidation: Bool
    /// How long the value stays fresh once received (`max-age` less `Age`, or
    /// `Expires` less `Date`, never below zero); `nil` when the response does not say.
    public var freshnessLifetime: Duration?

    /// Creates directives.
    ///
    /// - Parameters:
    ///   - forbidsStoring: Whether the value must not be kept (`no-store`).
    ///   - requiresRevalidation: Whether the value must be revalidated before every
    ///     reuse (`no-cache`).
    ///   - freshnessLifetime: How long the value stays fresh; `nil` when unsaid.
    public init(
        forbidsStoring: Bool = false,
        requiresRevalidation: Bool = false,
        freshnessLifetime: Duration? = nil
    ) {
        self.forbidsStoring = forbidsStoring
        self.requiresRevalidation = requiresRevalidation
        self.freshnessLifetime = freshnessLifetime
    }

    /// The directives of `response`.
    ///
    /// A malformed `max-age` or `Expires` makes the value stale at once, as RFC 9111
    /// asks; a qualified `no-cache="field"` counts as `no-cache`.
    ///
    /// - Parameters:
    ///   - response: The response.
    ///   - date: When it was received, for `Expires` when it has no valid `Date`.
    public init(response: HTTPURLResponse, receivedAt date: Date) {
        self.init(fields: Self.fields(of: response), receivedAt: date)
    }

    /// The directives of the caching header fields `fields`, keyed by the names in
    /// ``fieldNames``.
    init(fields: [String: String], receivedAt date: Date) {
        self.init()
        let header = { (name: String) in fields[name] }
        var maxAge: Duration?
        if let control = header("Cache-Control") {
            for directive in control.split(separator: ",") {
                let parts = directive.split(
                    separator: "=",
                    maxSplits: 1,
                    omittingEmptySubsequences: false
                )
                let name = Self.trimmingSpaces(parts[0]).lowercased()
                switch name {
                case "no-store":
                    forbidsStoring = true
                case "no-cache":
                    requiresRevalidation = true
                case "max-age":
                    let value = Duration.seconds(parts.count == 2 ? Self.seconds(parts[1]) ?? 0 : 0)
                    maxAge = maxAge.map { min($0, value) } ?? value
                default:
                    continue
                }
            }
        } else if let pragma = header("Pragma"), pragma.lowercased().contains("no-cache") {
            requiresRevalidation = true
        }
        let lifetime =
            maxAge
            ?? header("Expires").map { expires in
                let now = header("Date").flatMap(HTTPDate.parse) ?? date
                let seconds = HTTPDate.parse(expires).map { $0.timeIntervalSince(now) } ?? 0
                return .milliseconds(Int64(max(0, seconds) * 1000))
            }
        let age = header("Age").flatMap { Self.seconds(Substring($0)) } ?? 0
        freshnessLifetime = lifetime.map { max(.zero, $0 - .seconds(age)) }
    }

    /// The whole seconds of a delta-seconds value, quoted or not; `nil` when malformed.
    private static func seconds(_ text: Substring) -> Int64? {
        let trimmed = trimmingSpaces(text)
        let bare =
            trimmed.count >= 2 && trimmed.hasPrefix("\"") && trimmed.hasSuffix("\"")
            ? trimmed.dropFirst().dropLast() : trimmed
        guard !bare.isEmpty, bare.utf8.allSatisfy({ (48...57).contains($0) }) else {
            return nil
        }
        return Int64(bare.prefix(12)) ?? nil
    }

    /// `text` without the spaces and tabs around it: a field's optional white space
    /// (RFC 9110 §5.6.3).
    private static func trimmingSpaces(_ text: Substring) -> Substring {
        let isSpace = { (character: Character) in character == " " || character == "\t" }
        let start = text.firstIndex { !isSpace($0) } ?? text.endIndex
        let end = text.lastIndex { !isSpace($0) }.map(text.index(after:)) ?? start
        return text[start..<end]
    }

    /// The header fields the directives are read from.
    static let fieldNames = ["Cache-Control", "Pragma", "Expires", "Date", "Age"]

    /// The caching header fields `response` has, keyed by the names in
    /// ``fieldNames``: what a stored response keeps, for a `304` to update field by
    /// field (RFC 9111 §4.3.4).
    static func fields(of response: HTTPURLResponse) -> [String: String] {
        var fields: [String: String] = [:]
        for name in fieldNames {
            fields[name] = response.value(forHTTPHeaderField: name)
        }
        return fields
    }
}
