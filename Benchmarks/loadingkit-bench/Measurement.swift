/// A scenario's comparison before it becomes a row, so that the rounds measured in
/// several processes can be pooled into one row.
struct Measurement: Codable {
    /// The scenario and variant, such as `1 KB ×1 screen / hand`.
    let scenario: String
    /// The rounds measured.
    let comparison: Comparison
    /// The largest CPU-time ratio allowed.
    let budget: Double
    /// What the numbers mean.
    let note: String

    /// The row judging the comparison on CPU time.
    var row: Row { Row(scenario, comparison, budget: budget, note: note) }
}
