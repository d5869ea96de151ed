import Foundation
import LoadingKit

/// Which rows the terminal shows, and which it marks as just arrived: it follows the
/// last change, so that a page appended at the end is scrolled to and marked as it
/// arrives, and rows inserted at the head are shown at the top.
struct RowViewport: Equatable {
    /// What brought the rows marked.
    enum Arrival: Equatable {
        /// Stories published since the list was loaded, brought by a refresh.
        case published
        /// Older stories, the page after those shown.
        case nextPage
        /// Newer stories, the page before those shown, loaded back.
        case previousPage

        /// The mark in front of each row, six columns wide: "+ new ", "↓ page" or
        /// "↑ page".
        var mark: String {
            switch self {
            case .published: "+ new "
            case .nextPage: "↓ page"
            case .previousPage: "↑ page"
            }
        }
    }

    /// The index of the first row shown, before clamping to the rows there are.
    private(set) var top = 0
    /// The rows the last change brought.
    private(set) var marked = IndexSet()
    /// What brought them.
    private(set) var arrival = Arrival.nextPage

    /// Follows `change` to the rows, made by a load doing `load`: rows a page brings
    /// are marked as a page's, rows inserted otherwise as newly published.
    mutating func apply(_ change: ContentChange, from load: LoadingActivity) {
        switch change {
        case .none:
            break
        case .replaced:
            top = 0
            marked = []
        case .appended(let range):
            top = range.lowerBound
            marked = IndexSet(integersIn: range)
            arrival = load == .loadingPreviousPage ? .previousPage : .nextPage
        case .inserted(let indices):
            top = indices.first ?? top
            marked = indices
            arrival = load == .loadingPreviousPage ? .previousPage : .published
        case .removed(let range):
            marked.remove(integersIn: range)
            marked.shift(startingAt: range.upperBound, by: -range.count)
            if top >= range.upperBound {
                top -= range.count
            } else if top > range.lowerBound {
                top = range.lowerBound
            }
        }
    }

    /// Forgets which rows are new: they were the last step's.
    mutating func clearMarks() {
        marked = []
    }

    /// The rows to show of `count`, at most `room` of them, as many as fit.
    func visible(of count: Int, room: Int) -> Range<Int> {
        let room = max(0, min(room, count))
        let first = max(0, min(top, count - room))
        return first..<(first + room)
    }
}
