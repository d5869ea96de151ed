import Foundation

/// Where the demo writes: standard output, or a buffer in tests.
@MainActor
protocol DemoOutput: AnyObject {
    /// Whether this is a terminal that understands escape codes.
    var isTerminal: Bool { get }
    func write(_ text: String)
}

/// Standard output.
@MainActor
final class StandardOutput: DemoOutput {
    let isTerminal = isatty(STDOUT_FILENO) == 1

    func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }
}
