/// An HTTP request method, such as `GET` or `POST`.
///
/// ```swift
/// let resource = Resource<[Post]>(url: postsURL, method: .get)
/// HTTPMethod.put.isIdempotent  // true
/// ```
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    /// The method's token as sent on the request line, in upper case.
    public let rawValue: String

    /// Creates a method from its token; the token is upper-cased.
    ///
    /// - Parameter rawValue: The method's token, in any case.
    public init(rawValue: String) {
        self.rawValue = rawValue.uppercased()
    }

    /// Creates a method from a string literal such as `"PURGE"`.
    ///
    /// - Parameter value: The method's token, in any case.
    public init(stringLiteral value: String) {
        self.init(rawValue: value)
    }

    /// `GET`: read a representation.
    public static let get: HTTPMethod = "GET"
    /// `HEAD`: read only the headers of a representation.
    public static let head: HTTPMethod = "HEAD"
    /// `POST`: submit data to be processed.
    public static let post: HTTPMethod = "POST"
    /// `PUT`: replace a representation.
    public static let put: HTTPMethod = "PUT"
    /// `PATCH`: partially modify a representation.
    public static let patch: HTTPMethod = "PATCH"
    /// `DELETE`: remove a representation.
    public static let delete: HTTPMethod = "DELETE"
    /// `OPTIONS`: ask which methods are allowed.
    public static let options: HTTPMethod = "OPTIONS"

    /// Whether sending the request twice has the same effect as sending it once
    /// (RFC 9110 §9.2.2), which is what makes a request safe to retry.
    public var isIdempotent: Bool {
        switch self {
        case .get, .head, .put, .delete, .options, "TRACE": true
        default: false
        }
    }

    /// The method's token.
    public var description: String { rawValue }
}
