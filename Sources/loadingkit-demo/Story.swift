import Foundation
import LoadingKit

/// One story of the embedded story server, renamed by the demo.
struct Story: Codable, Sendable, Identifiable, Equatable {
    let id: Int
    var title: String

    /// The stories of the server at `base`.
    static func all(on base: URL) -> Resource<[Story]> {
        Resource(url: base.appending(path: "stories"))
    }

    /// Renames story `id` on the server at `base`.
    static func rename(_ id: Int, to title: String, on base: URL) -> Resource<Story> {
        // Encoding a dictionary of strings cannot fail.
        try! Resource(
            url: base.appending(path: "stories/\(id)"),
            method: .patch,
            body: ["title": title]
        )
    }
}
