import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What every HTTP row is measured against: a load written by hand, with a
/// completion-handler data task and a `JSONDecoder`.
///
/// ```swift
/// let items: [BenchItem] = try await HandWritten.fetch(session: .shared, url: url)
/// ```
enum HandWritten {
    /// The value at `url`, decoded from JSON.
    ///
    /// - Parameters:
    ///   - session: The session whose data task loads it.
    ///   - url: Where it is.
    /// - Returns: The decoded value.
    static func fetch<T: Decodable & Sendable>(session: URLSession, url: URL) async throws -> T {
        let data: Data = try await withCheckedThrowingContinuation { continuation in
            session.dataTask(with: URLRequest(url: url)) { data, _, error in
                if let data {
                    continuation.resume(returning: data)
                } else {
                    continuation.resume(throwing: error ?? URLError(.badServerResponse))
                }
            }.resume()
        }
        return try JSONDecoder().decode(T.self, from: data)
    }
}
