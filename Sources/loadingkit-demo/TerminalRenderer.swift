import Dispatch
import Foundation
import LoadingKit

#if canImport(Glibc)
    import Glibc
#endif

/// A full-screen terminal view of a `TerminalFrame`: redrawn at each change, with a
/// spinner while loading, sized to the window at each draw. A step's screen stays up
/// for `hold` before the next step replaces it, so that its notes can be read.
@MainActor
final class TerminalRenderer {
    private let output: any DemoOutput
    private let hold: Duration
    private let sleep: @MainActor (Duration) async -> Void
    private var frame = TerminalFrame()
    private var spinnerTask: Task<Void, Never>?
    private var tick = 0
    private var finished = false
    /// Redraws when the window is resized (`SIGWINCH`).
    private var resizes: (any DispatchSourceSignal)?

    private static let spinner = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
    /// The size drawn at when the terminal cannot tell.
    private static let fallbackSize = TerminalSize(columns: 80, rows: 24)

    /// Draws on `output`, holding each step's screen for `hold` by calling `sleep`.
    init(
        output: any DemoOutput,
        hold: Duration = .milliseconds(1500),
        sleep: @escaping @MainActor (Duration) async -> Void = { try? await Task.sleep(for: $0) }
    ) {
        self.output = output
        self.hold = hold
        self.sleep = sleep
    }

    /// Redraws the frame, at the window's new size, each time the window is resized.
    func followResizes() {
        guard resizes == nil else { return }
        signal(SIGWINCH, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGWINCH, queue: .main)
        source.setEventHandler { [weak self] in
            MainActor.assumeIsolated { self?.draw() }
        }
        source.resume()
        resizes = source
    }

    /// The keys a person can press, shown at the bottom.
    var help: String {
        get { frame.help }
        set { frame.help = newValue }
    }

    func step(_ title: String) async {
        if !frame.title.isEmpty {
            await pause()
        }
        frame.title = title
        clearNotes()
    }

    func note(_ text: String) {
        frame.notes.append(text)
        draw()
    }

    /// Replaces the notes with `text`: what was under way is over.
    func replaceNotes(with text: String) {
        frame.notes = [text]
        draw()
    }

    /// Forgets the notes, the notice and the marks: a new step, or a new key pressed.
    func clearNotes() {
        frame.notes = []
        frame.notice = nil
        frame.viewport.clearMarks()
        draw()
    }

    func notice(_ text: String) {
        frame.notice = text
        draw()
    }

    func pause() async {
        await sleep(hold)
    }

    func render(_ screen: FeedScreen, change: ContentChange?) {
        let state = screen.loadingState
        frame.state = state
        frame.pagination = screen.pagination
        if let change {
            frame.viewport.apply(change, from: screen.lastLoad)
            frame.notice = nil
        }
        if state.isLoading && spinnerTask == nil {
            spinnerTask = Task { [weak self] in
                while let self, self.frame.state.isLoading, !Task.isCancelled {
                    self.tick += 1
                    self.draw()
                    try? await Task.sleep(for: .milliseconds(80))
                }
                self?.spinnerTask = nil
            }
        }
        draw()
    }

    func progress(_ text: String) {
        frame.progress = text
    }

    /// Draws only the notes from now on: the feed screen and its counts are done with.
    func leaveFeed() {
        frame.showsFeed = false
        frame.progress = ""
        draw()
    }

    /// Shows the cursor again, once; nothing is drawn after.
    func finish() {
        guard !finished else { return }
        finished = true
        spinnerTask?.cancel()
        resizes?.cancel()
        output.write("\u{1B}[?25h\n")
    }

    /// Draws over the previous frame line by line, clearing what each line leaves.
    private func draw() {
        guard !finished else { return }
        frame.spinner = Self.spinner[tick % Self.spinner.count]
        let lines = frame.lines(in: output.terminalSize ?? Self.fallbackSize)
        output.write(
            "\u{1B}[?25l\u{1B}[H" + lines.joined(separator: "\u{1B}[K\n") + "\u{1B}[K\u{1B}[J"
        )
    }
}
