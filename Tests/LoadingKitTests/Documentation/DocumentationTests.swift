import Foundation
import Testing

/// The code blocks of the README and the DocC articles are the snippets compiled in
/// DocumentationSnippets.swift, word for word.
@Suite("Documentation", .timeLimit(.minutes(1)))
struct DocumentationTests {
    static let root = URL(filePath: #filePath)
        .deletingLastPathComponent()  // Documentation
        .deletingLastPathComponent()  // LoadingKitTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()

    static func read(_ path: String) throws -> String {
        try String(contentsOf: root.appending(path: path), encoding: .utf8)
    }

    /// The `swift` code blocks of a Markdown document, dedented, without the imports
    /// they open with.
    static func swiftBlocks(of markdown: String) -> [String] {
        var blocks: [String] = []
        var current: [Substring]?
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line.trimmingCharacters(in: .whitespaces) == "```swift" {
                current = []
            } else if current != nil, line.trimmingCharacters(in: .whitespaces) == "```" {
                let code = current!.drop { $0.hasPrefix("import ") || $0.isEmpty }
                blocks.append(dedent(Array(code)))
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    /// The snippet regions of DocumentationSnippets.swift, GuideSnippets.swift and
    /// LiveSnippets.swift, dedented.
    static func snippets() throws -> [String] {
        let folder = "Tests/LoadingKitTests/Documentation/"
        let files = ["DocumentationSnippets.swift", "GuideSnippets.swift", "LiveSnippets.swift"]
        let source = try files.map { try read(folder + $0) }.joined(separator: "\n")
        var snippets: [String] = []
        var current: [Substring]?
        for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("// snippet: ") {
                current = []
            } else if trimmed == "// end snippet" {
                snippets.append(dedent(current ?? []))
                current = nil
            } else {
                current?.append(line)
            }
        }
        return snippets
    }

    static func dedent(_ lines: [Substring]) -> String {
        let indent =
            lines.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
            .map { $0.prefix { $0 == " " }.count }
            .min() ?? 0
        return lines.map { String($0.dropFirst(min(indent, $0.count))) }.joined(separator: "\n")
    }

    @Test(
        "every Swift block of a document is a compiled snippet",
        arguments: [
            "README.md",
            "Sources/LoadingKit/LoadingKit.docc/LoadingKit.md",
            "Sources/LoadingKit/LoadingKit.docc/GettingStarted.md",
            "Sources/LoadingKit/LoadingKit.docc/RefreshingContent.md",
            "Sources/LoadingKit/LoadingKit.docc/KeepingScreensFresh.md",
            "Sources/LoadingKit/LoadingKit.docc/PaginatingContent.md",
            "Sources/LoadingKit/LoadingKit.docc/CachingRetriesAndCoalescing.md",
            "Sources/LoadingKit/LoadingKit.docc/SharingInvalidatingAndMutating.md",
            "Sources/LoadingKit/LoadingKit.docc/UsingLoadingKitWithSwiftUI.md",
            "Sources/LoadingKit/LoadingKit.docc/WritesThatAreNeverLost.md",
            "Sources/LoadingKit/LoadingKit.docc/SigningInRefreshingAndSigningOut.md",
            "Sources/LoadingKit/LoadingKit.docc/LiveResources.md",
            "Sources/LoadingKitNetworking/LoadingKitNetworking.docc/LoadingKitNetworking.md",
            "Sources/LoadingKitNetworking/LoadingKitNetworking.docc/GettingStartedWithNetworking.md",
            "Sources/LoadingKitNetworking/LoadingKitNetworking.docc/LoggingWhatTheKitDecides.md",
            "Sources/LoadingKitTesting/LoadingKitTesting.docc/LoadingKitTesting.md",
            "Sources/LoadingKitTesting/LoadingKitTesting.docc/GettingStartedWithTesting.md",
        ]
    )
    func blocksAreCompiled(document: String) throws {
        let snippets = try Self.snippets()
        let blocks = Self.swiftBlocks(of: try Self.read(document))
        #expect(!blocks.isEmpty)
        for block in blocks {
            #expect(snippets.contains(block), "\(document) has a block no test compiles:\n\(block)")
        }
    }

    @Test("the README's first run prints Pilot as written, with no network")
    @MainActor
    func readmeFirstRun() async throws {
        #expect(try await DocumentationSnippets.albumOnALocalServer() == "Pilot")
    }

    @Test("the detail-screen recipe of Getting Started runs as written, on its local server")
    @MainActor
    func localDetailRecipe() async throws {
        #expect(try await DocumentationSnippets.detailOnALocalServer() == "Pilot")
    }

    @Test("every CHANGELOG entry is one short line")
    func changelogLinesAreShort() throws {
        let long = try Self.read("CHANGELOG.md").split(separator: "\n").filter { $0.count > 100 }
        #expect(
            long.isEmpty,
            "CHANGELOG lines over 100 characters:\n\(long.joined(separator: "\n"))"
        )
    }
}
