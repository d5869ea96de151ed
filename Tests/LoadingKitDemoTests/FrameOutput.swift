import Foundation

@testable import loadingkit_demo

/// A terminal of a given size, for tests: keeps each frame the terminal renderer
/// draws, as the lines a person would read, escape codes removed.
@MainActor
final class FrameOutput: DemoOutput {
    let isTerminal = true
    let terminalSize: TerminalSize?
    private(set) var frames: [[String]] = []
    /// For each pause, how many frames were drawn before it, and how long it was.
    private(set) var pauses: [(afterFrames: Int, duration: Duration)] = []
    private(set) var errors = ""
    /// Drawn screens have no event lines: `--verbose` prints plain lines.
    nonisolated var eventLine: @Sendable (String) -> Void { { _ in } }

    init(columns: Int, rows: Int) {
        terminalSize = TerminalSize(columns: columns, rows: rows)
    }

    func write(_ text: String) {
        guard text.hasPrefix("\u{1B}[?25l") else { return }  // the cursor shown at the end
        frames.append(
            Self.plain(text).split(separator: "\n", omittingEmptySubsequences: false).map(
                String.init
            )
        )
    }

    /// Records a pause of the renderer instead of waiting.
    func pause(_ duration: Duration) {
        pauses.append((frames.count, duration))
    }

    func writeError(_ text: String) {
        errors += text
    }

    /// The frames drawn while the title read `title`.
    func frames(titled title: String) -> [[String]] {
        frames.filter { $0.first?.hasSuffix("— \(title)") == true }
    }

    /// `text` without its escape codes.
    nonisolated static func plain(_ text: String) -> String {
        text.replacing(/\x1B\[[0-9;?]*[A-Za-z]/, with: "")
    }
}
