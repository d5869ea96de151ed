import Foundation
import LoadingKitNetworking

@testable import loadingkit_demo

/// Collects what the demo writes, as a pipe would: the output and the errors apart.
@MainActor
final class BufferOutput: DemoOutput {
    let isTerminal = false
    private(set) var text = ""
    private(set) var errors = ""
    /// The event lines, written from any thread.
    let events = Locked<[String]>([])
    nonisolated var eventLine: @Sendable (String) -> Void {
        { [events] line in events.withLock { $0.append(line) } }
    }

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
