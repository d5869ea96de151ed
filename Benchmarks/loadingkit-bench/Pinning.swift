import Foundation

/// Runs a child process on one CPU with `taskset`, when there is one and more than one
/// CPU: the side-by-side rows run the client on CPU 1 and its server on CPU 0, so
/// that neither takes the other's core.
///
/// ```swift
/// let (executable, arguments) = Pinning.command(running: binary, ["--serve"], on: 0)
/// ```
enum Pinning {
    private static let taskset = "/usr/bin/taskset"

    /// Whether children are pinned on this machine: two CPUs or more, `taskset`, and
    /// CPUs 0 and 1 allowed to this process.
    static let isAvailable: Bool = {
        guard ProcessInfo.processInfo.activeProcessorCount >= 2,
            FileManager.default.isExecutableFile(atPath: taskset)
        else { return false }
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: taskset)
        probe.arguments = ["-c", "0,1", "/bin/true"]
        guard (try? probe.run()) != nil else { return false }
        probe.waitUntilExit()
        return probe.terminationStatus == 0
    }()

    /// The executable and arguments that run `executable` with `arguments` on `cpu`,
    /// or unpinned where pinning is not available.
    ///
    /// - Parameters:
    ///   - executable: The program.
    ///   - arguments: Its arguments.
    ///   - cpu: The CPU it runs on, or `nil` for any.
    /// - Returns: What to hand to `Process`.
    static func command(
        running executable: URL,
        _ arguments: [String],
        on cpu: Int?
    ) -> (URL, [String]) {
        guard let cpu, isAvailable else { return (executable, arguments) }
        return (URL(fileURLWithPath: taskset), ["-c", "\(cpu)", executable.path] + arguments)
    }
}
