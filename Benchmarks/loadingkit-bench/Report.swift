import Foundation

/// One line of the report: a scenario's kit and baseline, their ratio and its budget.
struct Row: Codable {
    /// The scenario and variant, such as `1 KB ×1 screen / hand`.
    let scenario: String
    /// What is compared: `cpu` or `wall` (seconds per operation), `count`, or `rss`.
    let metric: String
    /// The kit's median.
    let kit: Double
    /// The baseline's median.
    let baseline: Double
    /// The median per-round ratio kit / baseline, with its interquartile range.
    let ratio: Spread
    /// The wall-time ratio, where it is measured.
    let wallRatio: Spread?
    /// The largest ratio (or count) allowed.
    let budget: Double
    /// Whether the median is within the budget.
    let withinBudget: Bool
    /// What the numbers mean.
    let note: String

    init(
        scenario: String,
        metric: String,
        kit: Double,
        baseline: Double,
        ratio: Spread,
        wallRatio: Spread? = nil,
        budget: Double,
        note: String
    ) {
        self.scenario = scenario
        self.metric = metric
        self.kit = kit
        self.baseline = baseline
        self.ratio = ratio
        self.wallRatio = wallRatio
        self.budget = budget
        self.withinBudget = ratio.median <= budget
        self.note = note
    }

    /// A row judged on wall time per operation, for a budget in time to a result.
    init(judgedOnWall scenario: String, _ comparison: Comparison, budget: Double, note: String) {
        self.init(
            scenario: scenario,
            metric: "wall",
            kit: comparison.kitWall.median,
            baseline: comparison.baselineWall.median,
            ratio: comparison.wallRatio,
            wallRatio: comparison.wallRatio,
            budget: budget,
            note: note
        )
    }

    /// A row comparing CPU time per operation.
    init(_ scenario: String, _ comparison: Comparison, budget: Double, note: String) {
        self.init(
            scenario: scenario,
            metric: "cpu",
            kit: comparison.kitCPU.median,
            baseline: comparison.baselineCPU.median,
            ratio: comparison.cpuRatio,
            wallRatio: comparison.wallRatio,
            budget: budget,
            note: note
        )
    }
}

/// The whole run, as `--json` writes it.
struct Report: Codable {
    let quick: Bool
    let date: String
    let rows: [Row]

    /// The table printed to standard output.
    var table: String {
        var lines = [
            pad("scenario", 40) + pad("kit", 12) + pad("baseline", 12) + pad("ratio (IQR)", 24)
                + pad("wall", 8) + pad("budget", 9) + "ok"
        ]
        for row in rows {
            let ratio = String(
                format: "%.3f (%.3f–%.3f)",
                row.ratio.median,
                row.ratio.lower,
                row.ratio.upper
            )
            let wall = row.wallRatio.map { String(format: "%.3f", $0.median) } ?? "-"
            lines.append(
                pad(row.scenario, 40) + pad(format(row.kit, row.metric), 12)
                    + pad(format(row.baseline, row.metric), 12) + pad(ratio, 24) + pad(wall, 8)
                    + pad("≤ " + budget(row.budget), 9)
                    + (row.withinBudget ? "yes" : "NO")
            )
        }
        return lines.joined(separator: "\n")
    }

    /// A budget with two decimals, or three when two would round it: 7 of 29 reads
    /// 0.241, not 0.24.
    private func budget(_ value: Double) -> String {
        let short = String(format: "%.2f", value)
        return Double(short) == value ? short : String(format: "%.3f", value)
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }

    private func format(_ value: Double, _ metric: String) -> String {
        switch metric {
        case "cpu", "wall":
            value < 1e-3
                ? String(format: "%.1f µs", value * 1e6) : String(format: "%.2f ms", value * 1e3)
        case "rss": String(format: "%.0f KiB", value)
        default: String(format: "%.0f", value)
        }
    }
}
