import Foundation

@testable import loadingkit_demo

/// Collects what the demo writes, as a pipe would: the output and the errors apart.
@MainActor
final class BufferOutput: DemoOutput {
    let isTerminal = false
    private(set) var text = ""
    private(set) var errors = ""

    func write(_ text: String) {
        self.text += text
    }

    func writeError(_ text: String) {
        errors += text
    }

    /// The output's lines, trimmed, without the empty ones.
    var lines: [String] { Self.lines(of: text) }

    /// The errors' lines, trimmed, without the empty ones.
    var errorLines: [String] { Self.lines(of: errors) }

    private static func lines(of text: String) -> [String] {
        text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    }
}
