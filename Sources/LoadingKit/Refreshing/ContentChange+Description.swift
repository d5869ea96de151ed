import Foundation

extension ContentChange: CustomStringConvertible {
    /// What changed, in rows counted from 1: "appended rows 11–20", "inserted 3 rows at
    /// the top", "removed rows 1–10", "replaced the content", "no change".
    public var description: String {
        switch self {
        case .none:
            "no change"
        case .replaced:
            "replaced the content"
        case .appended(let range):
            "appended \(Self.rows(range))"
        case .removed(let range):
            "removed \(Self.rows(range))"
        case .inserted(let indices):
            Self.insertion(indices)
        }
    }

    /// "row 3" or "rows 3–5", counted from 1.
    private static func rows(_ range: Range<Int>) -> String {
        range.count == 1
            ? "row \(range.lowerBound + 1)" : "rows \(range.lowerBound + 1)–\(range.upperBound)"
    }

    /// "inserted 3 rows at the top", or the rows inserted elsewhere.
    private static func insertion(_ indices: IndexSet) -> String {
        let count = indices.count
        let noun = count == 1 ? "row" : "rows"
        if indices.first == 0, indices.rangeView.count == 1 {
            return "inserted \(count) \(noun) at the top"
        }
        return "inserted " + indices.rangeView.map { rows($0) }.joined(separator: ", ")
    }
}
