import Foundation

/// Where the demo writes: standard output and standard error, or buffers in tests.
@MainActor
protocol DemoOutput: AnyObject {
    /// Whether this is a terminal that understands escape codes.
    var isTerminal: Bool { get }
    /// Writes the demo's output: screens, lines, items.
    func write(_ text: String)
    /// Writes an error or a usage message, apart from the output.
    func writeError(_ text: String)
}

/// Standard output, and standard error for errors.
@MainActor
final class StandardOutput: DemoOutput {
    let isTerminal = isatty(STDOUT_FILENO) == 1

    func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    func writeError(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
