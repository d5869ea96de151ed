import Foundation
import LoadingKit

/// One frame of the terminal view, as lines that fit the window: the step's title; one
/// status line for the screen; as many rows as the height leaves room for, around the
/// last change; the step's notes under them; then the progress line and the help.
/// Rows stay where they are as notes come: a note takes the room of the last row.
struct TerminalFrame {
    var title = ""
    /// The current step's notes, oldest first.
    var notes: [String] = []
    /// What happens now, shown after the notes until it is over.
    var notice: String?
    var state = LoadingState<[FeedItem]>()
    /// The screen's window of pages, once drawn.
    var pagination: PaginationState<URL>?
    var viewport = RowViewport()
    var progress = ""
    var help = ""
    /// Whether the feed screen is drawn, or only the notes.
    var showsFeed = true
    var spinner = "⠋"

    /// The most notes shown under the feed, the latest.
    static let noteLines = 5

    /// At most `size.rows` lines, none longer than the width less one column (escapes
    /// aside), so that nothing wraps and the screen never scrolls: the status, the notes
    /// and the keys are wrapped between words, a row's title is shortened.
    func lines(in size: TerminalSize) -> [String] {
        let width = max(1, size.columns - 1)
        var lines = [
            Style.bold(fit("LoadingKit demo — \(title)", width), prefix: "LoadingKit demo")
        ]
        let remarks = (notes + (notice.map { [$0] } ?? [])).flatMap { wrap($0, width) }
        var footer = [""]
        if !progress.isEmpty {
            footer += wrap(progress, width).map(Style.dim)
        }
        if !help.isEmpty {
            footer += wrap(help, width, between: " · ")
        }
        if showsFeed {
            let notes = remarks.suffix(Self.noteLines)
            lines += wrap(status, width).prefix(3)
            let room = size.rows - lines.count - footer.count - notes.count - 3
            lines += feed(room: room, width: width)
            lines += notes.isEmpty ? [] : [""] + notes
        } else {
            lines += remarks.suffix(max(1, size.rows - lines.count - footer.count))
        }
        return Array((lines + footer).prefix(size.rows))
    }

    /// The screen's one status line: what it does now, else what failed, else that all
    /// is loaded.
    var status: String {
        switch state.placeholder {
        case .blank: return "(nothing loaded yet)"
        case .loading: return "\(spinner) Loading…"
        case .empty: return "∅ Nothing here. Try another filter."
        case .error(let error): return "⚠ \(error)"
        case .content: break
        }
        let next = DemoFormat.page(pagination?.nextCursor, otherwise: "the next page")
        let previous = DemoFormat.page(pagination?.previousCursor, otherwise: "the previous page")
        switch (state.activity, pagination?.pageError, pagination?.previousPageError) {
        case (.loadingNextPage, let error?, _):
            return "\(spinner) retrying \(next), which failed: \(DemoFormat.reason(error))"
        case (.loadingPreviousPage, _, let error?):
            return "\(spinner) retrying \(previous), which failed: \(DemoFormat.reason(error))"
        case (.loading, _, _):
            return "\(spinner) reloading"  // rows are shown: they stay while it loads
        case (let activity, _, _) where activity != .idle:
            return "\(spinner) \(activity)"
        case (_, let error?, _):
            // A standing condition, not news: it stays true after a refresh succeeds.
            return "⚠ \(next) not loaded: \(DemoFormat.reason(error)) — loading more asks again"
        case (_, _, let error?):
            return
                "⚠ \(previous) not loaded: \(DemoFormat.reason(error)) — scrolling back asks again"
        default:
            return state.error.map { "⚠ \($0); showing what was loaded before" } ?? "✓ up to date"
        }
    }

    /// The rows that fit in `room` lines, between a line for what is above them and a
    /// line for what is below; nothing while a placeholder shows.
    private func feed(room: Int, width: Int) -> [String] {
        guard state.placeholder == .content, let rows = state.content else { return [] }
        let shown = viewport.visible(of: rows.count, room: max(1, room))
        var above: [String] = []
        if shown.lowerBound > 0 {
            above.append("↑ \(DemoFormat.count(shown.lowerBound, "row")) above")
        }
        if pagination?.hasPreviousPages == true {
            above.append("earlier pages dropped from memory, loaded back on scroll")
        }
        var below: [String] = []
        if shown.upperBound < rows.count {
            below.append("↓ \(DemoFormat.count(rows.count - shown.upperBound, "row")) below")
        }
        below.append(
            pagination?.hasMorePages == true ? "more pages on the server" : "end of the feed"
        )
        var lines = [fit("        " + above.joined(separator: " · "), width)]
        let mark = viewport.arrival.mark
        let blank = String(repeating: " ", count: mark.count)
        let paint = viewport.arrival == .published ? Style.green : Style.cyan
        for index in shown {
            let marked = viewport.marked.contains(index)
            let row = fit("  \(marked ? mark : blank) \(rows[index].title)", width)
            lines.append(marked ? paint(row, "  " + mark) : row)
        }
        lines.append(fit("        " + below.joined(separator: " · "), width))
        return lines
    }

    /// `text` indented by two columns, in lines of at most `width` characters broken
    /// at `separator` (kept at the end of a line but the last), the lines after the
    /// first indented by two more; a part longer than a line is shortened.
    private func wrap(_ text: String, _ width: Int, between separator: String = " ") -> [String] {
        let parts = text.components(separatedBy: separator)
        var lines: [String] = []
        var line = "  "
        for (index, part) in parts.enumerated() {
            let piece = index < parts.count - 1 ? part + separator : part
            let trimmed = piece.trimmingCharacters(in: .whitespaces)
            if line.trimmingCharacters(in: .whitespaces).isEmpty
                || line.count + trimmed.count <= width
            {
                line += piece
            } else {
                lines.append(trailingTrimmed(line))
                line = "    " + piece
            }
        }
        lines.append(trailingTrimmed(line))
        return lines.map { fit($0, width) }
    }

    private func trailingTrimmed(_ line: String) -> String {
        var line = line
        while line.last == " " { line.removeLast() }
        return line
    }

    /// `text`, cut to `width` characters with an ellipsis.
    private func fit(_ text: String, _ width: Int) -> String {
        guard text.count > width else { return text }
        return String(text.prefix(max(0, width - 1))) + "…"
    }
}

/// The few escape codes the frame uses, applied once a line is cut to the window: to
/// the whole line, or to its `prefix` only when it has it.
enum Style {
    static func bold(_ line: String, prefix: String? = nil) -> String {
        styled(line, "1", prefix: prefix)
    }

    static func dim(_ line: String) -> String { styled(line, "2", prefix: nil) }

    static func green(_ line: String, prefix: String? = nil) -> String {
        styled(line, "32", prefix: prefix)
    }

    static func cyan(_ line: String, prefix: String? = nil) -> String {
        styled(line, "36", prefix: prefix)
    }

    private static func styled(_ line: String, _ code: String, prefix: String?) -> String {
        let styled = prefix.flatMap { line.hasPrefix($0) ? $0 : nil } ?? line
        return "\u{1B}[\(code)m\(styled)\u{1B}[0m" + line.dropFirst(styled.count)
    }
}
