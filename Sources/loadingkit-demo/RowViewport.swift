import Foundation
import LoadingKit

/// Which rows the terminal shows, and which it marks new: it follows the last change,
/// so that a page appended at the end is scrolled to and marked as it arrives, and
/// rows inserted at the head are shown at the top.
struct RowViewport: Equatable {
    /// The index of the first row shown, before clamping to the rows there are.
    private(set) var top = 0
    /// The rows the last change brought.
    private(set) var marked = IndexSet()

    /// Follows `change` to the rows.
    mutating func apply(_ change: ContentChange) {
        switch change {
        case .none:
            break
        case .replaced:
            top = 0
            marked = []
        case .appended(let range):
            top = range.lowerBound
            marked = IndexSet(integersIn: range)
        case .inserted(let indices):
            top = indices.first ?? top
            marked = indices
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
