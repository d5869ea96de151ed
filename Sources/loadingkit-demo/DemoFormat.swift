import Foundation

/// How the demo writes counts and numbers: a noun that agrees with its count, whole
/// percentages.
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
}
