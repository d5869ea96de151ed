import Foundation

struct Episode: Codable, Sendable, Equatable {
    let id: Int
    let title: String
}

struct GitHubIssue: Codable, Sendable, Equatable {
    let number: Int
    let title: String
}

struct Draft: Codable, Sendable, Equatable {
    let title: String
    let tags: [String]
}
