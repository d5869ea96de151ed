import Foundation

/// The recorded API responses every test target reads, in one place: `Recorded/`,
/// where each folder keeps its project's licence (see `Recorded/README.md`).
///
/// ```swift
/// let issues = try Fixtures.json("octokit/paginate-issues.json")
/// ```
public enum Fixtures {
    /// A fixture that is not there.
    public struct Missing: Error, CustomStringConvertible {
        /// The path asked for, relative to `Recorded/`.
        public let path: String

        /// Names the missing fixture.
        public var description: String { "No fixture at Recorded/\(path)" }
    }

    /// The file of a fixture.
    ///
    /// - Parameter path: The fixture's path relative to `Recorded/`, such as
    ///   `"slack/web_response_users_list.json"`.
    /// - Throws: ``Missing`` when there is no such fixture.
    public static func url(_ path: String) throws -> URL {
        guard let url = Bundle.module.url(forResource: "Recorded/\(path)", withExtension: nil)
        else { throw Missing(path: path) }
        return url
    }

    /// The bytes of a fixture.
    ///
    /// - Parameter path: The fixture's path relative to `Recorded/`.
    public static func data(_ path: String) throws -> Data {
        try Data(contentsOf: url(path))
    }

    /// A fixture parsed as JSON.
    ///
    /// - Parameter path: The fixture's path relative to `Recorded/`.
    public static func json(_ path: String) throws -> Any {
        try JSONSerialization.jsonObject(with: data(path))
    }
}
