import Foundation

/// Runs a scenario in child processes of this executable, one after the other, and
/// pools their rounds row by row. At one load in flight the ratio moves by ±10 %
/// from one process to the next while the A/A control stays within a few per cent, so
/// one process's figure is not to be judged alone.
enum ProcessPool {
    /// The option a child is started with, followed by the file it writes its
    /// measurements to, as JSON.
    static let measurementsOption = "--measurements-to"

    /// A child that did not end with status 0.
    struct ChildFailed: Error, CustomStringConvertible {
        let status: Int32
        var description: String { "a child process ended with status \(status)" }
    }

    /// A scenario measured in `processes` children, each row's rounds pooled.
    ///
    /// - Parameters:
    ///   - scenario: The scenario's name, which the children are given first.
    ///   - processes: How many children to run, one after the other.
    ///   - options: The children's other options, such as `--quick`.
    ///   - cpu: The CPU the children run on, where ``Pinning`` is available; any by
    ///     default.
    /// - Returns: One measurement per row, with the rounds of every child.
    static func measure(
        _ scenario: String,
        in processes: Int,
        options: [String],
        pinnedTo cpu: Int? = nil
    ) throws -> [Measurement] {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var runs: [[Measurement]] = []
        for index in 0..<processes {
            let output = FileManager.default.temporaryDirectory
                .appending(path: "loadingkit-bench-\(getpid())-\(index).json")
            defer { try? FileManager.default.removeItem(at: output) }
            let child = Process()
            (child.executableURL, child.arguments) = Pinning.command(
                running: executable,
                [scenario, measurementsOption, output.path] + options,
                on: cpu
            )
            try child.run()
            child.waitUntilExit()
            guard child.terminationStatus == 0 else {
                throw ChildFailed(status: child.terminationStatus)
            }
            runs.append(
                try JSONDecoder().decode([Measurement].self, from: Data(contentsOf: output))
            )
        }
        return runs[0].indices.map { row in
            let first = runs[0][row]
            return Measurement(
                scenario: first.scenario,
                comparison: .pooling(runs.map { $0[row].comparison }),
                budget: first.budget,
                note: "\(first.note); \(processes) processes pooled"
            )
        }
    }

    /// Writes `measurements` where a parent asked for them.
    ///
    /// - Parameters:
    ///   - measurements: What this child measured.
    ///   - path: The file the parent reads.
    static func hand(_ measurements: [Measurement], to path: String) throws {
        try JSONEncoder().encode(measurements).write(to: URL(fileURLWithPath: path))
    }
}
