import Foundation
import LoadingKit

/// How the demo writes counts and numbers: a noun that agrees with its count, whole
/// percentages, milliseconds with two decimals.
enum DemoFormat {
    /// `count` and the noun, singular for exactly one: "1 request", "0 requests",
    /// "2 stories" with `plural` for the nouns that do not just take an s.
    static func count(_ count: Int, _ singular: String, plural: String? = nil) -> String {
        "\(count) \(count == 1 ? singular : plural ?? singular + "s")"
    }

    /// A fraction from 0 to 1 as a whole percentage, rounded: 0.333… is "33%".
    static func percent(_ fraction: Double) -> String {
        "\(Int((fraction * 100).rounded()))%"
    }

    /// The page `cursor` asks for, as a person would name it: "page 3" when its query
    /// numbers the page, else `otherwise`.
    static func page(_ cursor: URL?, otherwise: String) -> String {
        let items = cursor.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false) }?
            .queryItems
        guard let number = items?.first(where: { $0.name == "page" })?.value.flatMap(Int.init)
        else { return otherwise }
        return "page \(number)"
    }

    /// Why a page failed, beside the page's name, which says which request it was:
    /// "status 503", "the connection was lost"; no URL, which would leave out the page.
    static func reason(_ error: LoadingError) -> String {
        switch error {
        case .webservice(.badStatus(let failure)): "status \(failure.statusCode)"
        case .webservice(.transport(let failure)): failure.message
        default: error.description
        }
    }

    /// Rows `range` of a list, counted from 1 as a person reads them: "row 4",
    /// "rows 36–60".
    static func rows(_ range: Range<Int>) -> String {
        range.count == 1
            ? "row \(range.lowerBound + 1)" : "rows \(range.lowerBound + 1)–\(range.upperBound)"
    }

    /// A duration in milliseconds, with two decimals: "2.83 ms".
    static func milliseconds(_ duration: Duration) -> String {
        let components = duration.components
        let value = Double(components.seconds) * 1000 + Double(components.attoseconds) / 1e15
        return String(format: "%.2f ms", value)
    }
}
