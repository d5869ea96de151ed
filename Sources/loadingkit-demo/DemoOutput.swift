import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Where the demo writes: standard output and standard error, or buffers in tests.
@MainActor
protocol DemoOutput: AnyObject {
    /// Whether this is a terminal that understands escape codes.
    var isTerminal: Bool { get }
    /// The terminal's size, when it can tell.
    var terminalSize: TerminalSize? { get }
    /// Writes the demo's output: screens, lines, items.
    func write(_ text: String)
    /// Writes an error or a usage message, apart from the output.
    func writeError(_ text: String)
    /// Writes one line of the kit's events, from whatever thread the kit is on, at once
    /// and in order with the output.
    nonisolated var eventLine: @Sendable (String) -> Void { get }
}

extension DemoOutput {
    var terminalSize: TerminalSize? { nil }
}

/// The size of a terminal window, in character cells.
struct TerminalSize: Equatable {
    var columns: Int
    var rows: Int
}

/// Standard output, and standard error for errors.
@MainActor
final class StandardOutput: DemoOutput {
    let isTerminal = isatty(STDOUT_FILENO) == 1

    /// Asked at each draw, so that a resized window is followed.
    var terminalSize: TerminalSize? {
        var size = winsize()
        guard isTerminal, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0,
            size.ws_col > 0, size.ws_row > 0
        else { return nil }
        return TerminalSize(columns: Int(size.ws_col), rows: Int(size.ws_row))
    }

    func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    func writeError(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// Standard output, in one write per line, so that lines never mix.
    nonisolated let eventLine: @Sendable (String) -> Void = { line in
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}
