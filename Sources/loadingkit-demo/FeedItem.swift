import Foundation

/// One row of a feed: an identifier and a title, read from whatever JSON objects a
/// list API returns (`id` as a number or a string; `title`, `name`, `login` or
/// `full_name` as the title).
struct FeedItem: Decodable, Sendable, Identifiable, Equatable {
    let id: String
    let title: String

    private struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        let object = try decoder.container(keyedBy: Key.self)
        let idKey = Key(stringValue: "id")
        if let number = try? object.decode(Int.self, forKey: idKey) {
            id = String(number)
        } else {
            id = try object.decode(String.self, forKey: idKey)
        }
        let titleKeys = ["title", "name", "login", "full_name"].map(Key.init(stringValue:))
        title =
            titleKeys.lazy.compactMap { try? object.decode(String.self, forKey: $0) }.first
            ?? "#\(id)"
    }
}
