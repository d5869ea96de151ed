import Foundation
import LoadingKit

/// A full-screen terminal view: a spinner while loading, the placeholder, the newest
/// rows with fresh inserts marked, and a status line. It reads only the state, the
/// pagination and the counters it is given.
@MainActor
final class TerminalRenderer {
    private let output: any DemoOutput
    private var spinnerTask: Task<Void, Never>?
    private var frame = 0
    private var inserted: IndexSet = []
    private var title = ""
    private var notes: [String] = []
    private var state = LoadingState<[FeedItem]>()
    private var pagination = PaginationState<URL>()
    private var progressLine = ""
    private var showsFeed = true
    private var finished = false
    var help = ""

    private static let frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]

    init(output: any DemoOutput) {
        self.output = output
    }

    func step(_ title: String) {
        self.title = title
        notes = []
        draw()
    }

    func note(_ text: String) {
        notes = Array((notes + [text]).suffix(showsFeed ? 3 : 8))
        draw()
    }

    func render(
        _ state: LoadingState<[FeedItem]>,
        pagination: PaginationState<URL>,
        change: ContentChange?
    ) {
        self.state = state
        self.pagination = pagination
        if case .inserted(let indices) = change {
            inserted = indices
        } else if change == .replaced {
            inserted = []
        } else if case .appended = change {
            inserted = []
        } else if case .removed = change {
            inserted = []
        }
        if state.isLoading && spinnerTask == nil {
            spinnerTask = Task { [weak self] in
                while let self, self.state.isLoading, !Task.isCancelled {
                    self.frame += 1
                    self.draw()
                    try? await Task.sleep(for: .milliseconds(80))
                }
                self?.spinnerTask = nil
            }
        }
        draw()
    }

    func progress(_ text: String) {
        progressLine = text
    }

    func leaveFeed() {
        showsFeed = false
        draw()
    }

    /// Shows the cursor again, once; nothing is drawn after.
    func finish() {
        guard !finished else { return }
        finished = true
        spinnerTask?.cancel()
        output.write("\u{1B}[?25h\n")
    }

    private func draw() {
        guard !finished else { return }
        var screen = "\u{1B}[?25l\u{1B}[H\u{1B}[2J"
        screen += "\u{1B}[1mLoadingKit demo\u{1B}[0m — \(title)\n\n"
        let spinner = Self.frames[frame % Self.frames.count]
        switch showsFeed ? state.placeholder : .blank {
        case .blank: screen += showsFeed ? "  (nothing loaded yet)\n" : ""
        case .loading: screen += "  \(spinner) Loading…\n"
        case .empty: screen += "  ∅ Nothing here. Try another filter.\n"
        case .error(let error): screen += "  ⚠ \(error)\n"
        case .content:
            let rows = state.content ?? []
            let activity = state.isLoading ? "\(spinner) \(state.activity)" : "✓ up to date"
            screen += "  \(activity)\n"
            if pagination.hasPreviousPages {
                screen += "        ↑ earlier pages (dropped from memory, loaded back on scroll)\n"
            }
            for (index, row) in rows.prefix(12).enumerated() {
                let mark = inserted.contains(index) ? "\u{1B}[32m+ new\u{1B}[0m" : "     "
                screen += "  \(mark) \(row.title)\n"
            }
            if rows.count > 12 {
                screen += "        … \(rows.count - 12) more\n"
            }
            if let pageError = pagination.pageError {
                screen += "  ⚠ next page failed: \(pageError)\n"
            }
        }
        screen += "\n"
        for note in notes {
            screen += "  \(note)\n"
        }
        screen += "\n  \u{1B}[2m\(progressLine)\u{1B}[0m\n"
        if !help.isEmpty {
            screen += "  \(help)\n"
        }
        output.write(screen)
    }
}
