import Foundation

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

    /// A duration in milliseconds, with two decimals: "2.83 ms".
    static func milliseconds(_ duration: Duration) -> String {
        let components = duration.components
        let value = Double(components.seconds) * 1000 + Double(components.attoseconds) / 1e15
        return String(format: "%.2f ms", value)
    }
}
