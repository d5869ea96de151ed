import Foundation
import LoadingKitFixtures

/// One recorded GitHub call from the octokit fixtures.
struct RecordedExchange {
    let method: String
    let path: String
    let status: Int
    let headers: [String: String]
    let body: Data

    /// The exchanges of a scenario in the octokit fixtures.
    static func scenario(_ name: String) throws -> [RecordedExchange] {
        let entries = try Fixtures.json("octokit/\(name).json") as? [[String: Any]]
        return try (entries ?? []).map { entry in
            RecordedExchange(
                method: (entry["method"] as? String ?? "get").uppercased(),
                path: entry["path"] as? String ?? "/",
                status: entry["status"] as? Int ?? 200,
                headers: (entry["headers"] as? [String: Any] ?? [:]).compactMapValues {
                    $0 as? String
                },
                body: try JSONSerialization.data(withJSONObject: entry["response"] ?? [:])
            )
        }
    }
}
