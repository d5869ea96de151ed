import Foundation
import LoadingKit

// `Episode` and `Episode.resource(id:)` are declared by the README snippet in
// Documentation/DocumentationSnippets.swift.

extension Episode: Equatable {
    static func == (lhs: Episode, rhs: Episode) -> Bool {
        lhs.id == rhs.id && lhs.title == rhs.title
    }

    static let baseURL = URL(string: "https://api.example.com")!

    static var all: Resource<[Episode]> {
        Resource(url: baseURL.appending(path: "episodes"))
    }
}
