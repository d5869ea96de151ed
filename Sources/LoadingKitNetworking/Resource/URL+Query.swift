import Foundation

extension URL {
    /// This URL with `items` appended to its query; itself when there are none.
    ///
    /// - Parameter items: The query items, after those the URL has.
    /// - Returns: The URL with the items, percent-encoded as `URLComponents` encodes them.
    func appendingQuery(_ items: [URLQueryItem]) -> URL {
        guard !items.isEmpty,
            var components = URLComponents(url: self, resolvingAgainstBaseURL: true)
        else { return self }
        components.queryItems = (components.queryItems ?? []) + items
        return components.url ?? self
    }
}
