import Foundation

/// The header fields of a scripted response, in order, a name possibly repeated
/// (several `Link` or `Set-Cookie` fields). Write them as a dictionary literal, or as
/// an array of pairs when a name repeats.
///
/// ```swift
/// let headers: HeaderFields = ["ETag": #""v1""#, "Cache-Control": "max-age=60"]
/// let links: HeaderFields = [("Link", #"<…?page=2>; rel="next""#), ("Link", #"<…?page=9>; rel="last""#)]
/// headers["etag"]  // "\"v1\"": names compare case-insensitively
/// ```
public struct HeaderFields: Sendable, Equatable, ExpressibleByDictionaryLiteral,
    ExpressibleByArrayLiteral
{
    /// The fields, in the order they are sent.
    public var fields: [(name: String, value: String)]

    /// Creates header fields from pairs, in order.
    ///
    /// - Parameter fields: The names and values.
    public init(_ fields: [(name: String, value: String)] = []) {
        self.fields = fields
    }

    /// Creates header fields from a dictionary, in the order of their names.
    ///
    /// - Parameter dictionary: The names and values.
    public init(_ dictionary: [String: String]) {
        fields = dictionary.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) }
    }

    /// Creates header fields from a dictionary literal.
    ///
    /// - Parameter elements: The names and values.
    public init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { (name: $0.0, value: $0.1) }
    }

    /// Creates header fields from an array of pairs.
    ///
    /// - Parameter elements: The names and values.
    public init(arrayLiteral elements: (name: String, value: String)...) {
        fields = elements
    }

    /// The value of the first field named `name`, compared case-insensitively.
    ///
    /// - Parameter name: The field name.
    public subscript(name: String) -> String? {
        fields.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// Adds a field after the others.
    ///
    /// - Parameters:
    ///   - name: The field name.
    ///   - value: Its value.
    public mutating func append(_ name: String, _ value: String) {
        fields.append((name, value))
    }

    /// These fields followed by `other`'s.
    static func + (lhs: HeaderFields, rhs: HeaderFields) -> HeaderFields {
        HeaderFields(lhs.fields + rhs.fields)
    }

    /// One value per name, repeated names joined with commas, as `HTTPURLResponse`
    /// takes them.
    var joined: [String: String] {
        var joined: [String: String] = [:]
        for (name, value) in fields {
            joined[name] = joined[name].map { "\($0), \(value)" } ?? value
        }
        return joined
    }

    /// Two lists are equal when they hold the same fields in the same order.
    ///
    /// - Parameters:
    ///   - lhs: One list.
    ///   - rhs: The other.
    /// - Returns: Whether names and values match one for one, case included.
    public static func == (lhs: HeaderFields, rhs: HeaderFields) -> Bool {
        lhs.fields.elementsEqual(rhs.fields) { $0.name == $1.name && $0.value == $1.value }
    }
}
