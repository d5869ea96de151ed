import Foundation

/// The random cuts of a body that the stream parsers' split tests feed in chunks.
enum SplitBodies {
    /// How many random bodies a split test tries: `LOADINGKIT_SPLIT_CASES`, or 500.
    static let count =
        ProcessInfo.processInfo.environment["LOADINGKIT_SPLIT_CASES"].flatMap(Int.init) ?? 500

    /// `body` cut at up to 20 random places.
    static func chunks(of body: [UInt8], using generator: inout SeededGenerator) -> [[UInt8]] {
        let cuts = (0..<Int.random(in: 1...20, using: &generator))
            .map { _ in Int.random(in: 0...body.count, using: &generator) }
            .sorted()
        return zip([0] + cuts, cuts + [body.count]).map { Array(body[$0..<$1]) }
    }
}
