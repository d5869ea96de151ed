import Foundation

/// A scripted HTTP response for ``MockTransport``.
///
/// ```swift
/// mock.respond(to: "/episodes/1", with: .json(Episode(id: 1, title: "Pilot")))
/// mock.respond(to: "/episodes/2", with: .text("Not found", status: 404))
/// ```
public struct MockResponse: Sendable {
    /// The status code.
    public var statusCode: Int
    /// The header fields.
    public var headers: [String: String]
    /// The body.
    public var body: Data

    /// Creates a response.
    public init(statusCode: Int = 200, headers: [String: String] = [:], body: Data = Data()) {
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
    }

    /// A response whose body is `value` encoded as JSON.
    ///
    /// A value that cannot be encoded is a mistake in the test and stops it.
    public static func json<T: Encodable>(
        _ value: T,
        status: Int = 200,
        headers: [String: String] = [:],
        encoder: JSONEncoder = JSONEncoder()
    ) -> MockResponse {
        let body: Data
        do {
            body = try encoder.encode(value)
        } catch {
            preconditionFailure("MockResponse.json could not encode \(T.self): \(error)")
        }
        return MockResponse(
            statusCode: status,
            headers: ["Content-Type": "application/json"].merging(headers) { $1 },
            body: body
        )
    }

    /// A response whose body is `text` in UTF-8.
    public static func text(
        _ text: String,
        status: Int = 200,
        headers: [String: String] = [:]
    ) -> MockResponse {
        MockResponse(statusCode: status, headers: headers, body: Data(text.utf8))
    }

    /// A response with only a status code.
    public static func status(_ code: Int, headers: [String: String] = [:]) -> MockResponse {
        MockResponse(statusCode: code, headers: headers)
    }
}
