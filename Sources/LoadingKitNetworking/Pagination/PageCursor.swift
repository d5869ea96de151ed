/// An opaque next-page cursor as APIs send it: a string, a number, `null`, or
/// missing. An empty string means there is no next page.
///
/// ```swift
/// struct UsersPage: Decodable {
///     struct Metadata: Decodable { let next_cursor: PageCursor? }
///     let members: [User]
///     let response_metadata: Metadata?
/// }
/// ```
public struct PageCursor: Decodable, Sendable, Hashable, CustomStringConvertible {
    /// The cursor, or `nil` when it says there is no next page.
    public let value: String?

    /// Creates a cursor; an empty string means none.
    ///
    /// - Parameter value: The cursor as the API sent it; `nil` or empty when there is no
    ///   next page.
    public init(_ value: String?) {
        self.value = value?.isEmpty == false ? value : nil
    }

    /// Decodes a string, an integer, or `null`.
    ///
    /// - Parameter decoder: The decoder holding the cursor.
    /// - Throws: `DecodingError` when the value is neither of them.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self.init(nil)
        } else if let number = try? container.decode(Int.self) {
            self.init(String(number))
        } else {
            self.init(try container.decode(String.self))
        }
    }

    /// The cursor, or `none`.
    public var description: String { value ?? "none" }
}
