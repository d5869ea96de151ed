import Foundation
import LoadingKit

/// Line-by-line transitions, for pipes and tests: one line per change of activity
/// or placeholder, one per change to the rows.
@MainActor
final class PlainRenderer {
    private let output: any DemoOutput
    private var last: (LoadingActivity, String)?
    private var hasStep = false

    init(output: any DemoOutput) {
        self.output = output
    }

    func step(_ title: String) async {
        output.write((hasStep ? "\n" : "") + "== \(title)\n")
        hasStep = true
    }

    func note(_ text: String) {
        output.write("   \(text)\n")
    }

    func render(_ screen: FeedScreen, change: ContentChange?) {
        let state = screen.loadingState
        let pagination = screen.pagination
        if let change {
            note(describe(change, in: state.content ?? [], from: screen.lastLoad))
            return
        }
        let placeholder = describe(state.placeholder)
        guard last.map({ $0 != state.activity || $1 != placeholder }) ?? true else { return }
        last = (state.activity, placeholder)
        var line = "state: \(state.activity) · placeholder: \(placeholder)"
        if let items = state.content {
            line += " · items \(items.count) · pages \(pagination.pagesLoaded)"
            line += pagination.hasPreviousPages ? " · earlier" : ""
            line += pagination.hasMorePages ? " · more" : " · end"
        }
        if let pageError = pagination.pageError {
            let page = DemoFormat.page(pagination.nextCursor, otherwise: "next page")
            line +=
                state.activity == .loadingNextPage
                ? " · retrying \(page)" : " · \(page) failed: \(DemoFormat.reason(pageError))"
        }
        note(line)
    }

    private func describe(_ placeholder: LoadingState<[FeedItem]>.Placeholder) -> String {
        switch placeholder {
        case .blank: "blank"
        case .loading: "loading"
        case .empty: "empty"
        case .error(let error): "error (\(error))"
        case .content: "content"
        }
    }

    /// `change` to `items` in words, rows counted from 1, with what brought them: a
    /// load doing `load`.
    private func describe(
        _ change: ContentChange,
        in items: [FeedItem],
        from load: LoadingActivity
    ) -> String {
        switch change {
        case .none: return "rows: nothing new"
        case .replaced: return "rows: replaced, \(DemoFormat.count(items.count, "item"))"
        case .appended(let range):
            // The rows appended end the content, whatever a window dropped at the head.
            let added = items.suffix(range.count)
            let ends = added.first.map { "\($0.title) … \(added.last?.title ?? "")" } ?? "none"
            return "\(DemoFormat.rows(range)) appended: the next page (\(ends))"
        case .removed(let range): return "\(DemoFormat.rows(range)) dropped from memory"
        case .inserted(let indices):
            let titles = indices.prefix(3).map { items[$0].title }.joined(separator: ", ")
            let rows = indices.rangeView.map(DemoFormat.rows).joined(separator: ", ")
            let what =
                load == .loadingPreviousPage ? "the previous page, loaded back" : "newly published"
            return "\(rows) inserted: \(what) (\(titles)…)"
        }
    }
}
