import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// CPU and wall time of the process, and the statistics of interleaved rounds.
enum Measure {
    /// Process CPU time (`CLOCK_PROCESS_CPUTIME_ID`), in seconds.
    static func cpuTime() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    /// CPU time of the calling thread (`CLOCK_THREAD_CPUTIME_ID`), in seconds: on the
    /// main actor, the main thread's.
    static func threadCPUTime() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    /// Monotonic wall time, in seconds.
    static func wallTime() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    /// Resident memory of the process from `/proc/self/status`, in KiB.
    static func residentKiB() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return 0 }
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }

    /// CPU and wall seconds per operation of `body`, which runs `operations` of them.
    @MainActor
    static func time(
        operations: Int,
        _ body: () async throws -> Void
    ) async rethrows -> Sample {
        let cpu = cpuTime()
        let wall = wallTime()
        try await body()
        return Sample(
            cpu: (cpuTime() - cpu) / Double(operations),
            wall: (wallTime() - wall) / Double(operations)
        )
    }
}

/// The cost of one operation.
struct Sample: Codable {
    var cpu: Double
    var wall: Double
}

/// Median and interquartile range.
struct Spread: Codable {
    let median: Double
    let lower: Double
    let upper: Double

    init(_ values: [Double]) {
        let sorted = values.sorted()
        func quantile(_ q: Double) -> Double {
            guard !sorted.isEmpty else { return .nan }
            let position = q * Double(sorted.count - 1)
            let below = Int(position.rounded(.down))
            let above = min(sorted.count - 1, below + 1)
            return sorted[below] + (sorted[above] - sorted[below]) * (position - Double(below))
        }
        median = quantile(0.5)
        lower = quantile(0.25)
        upper = quantile(0.75)
    }
}

/// Runs kit and baseline in rounds, the order of the two shuffled each round, and
/// compares them round by round.
@MainActor
struct Interleaved {
    var rounds: Int
    var generator = SystemRandomNumberGenerator()

    mutating func compare(
        kit: () async throws -> Sample,
        baseline: () async throws -> Sample
    ) async rethrows -> Comparison {
        var kits: [Sample] = []
        var baselines: [Sample] = []
        for _ in 0..<rounds {
            if Bool.random(using: &generator) {
                kits.append(try await kit())
                baselines.append(try await baseline())
            } else {
                baselines.append(try await baseline())
                kits.append(try await kit())
            }
        }
        return Comparison(kit: kits, baseline: baselines)
    }
}

/// Kit and baseline samples of the same rounds.
struct Comparison: Codable {
    let kit: [Sample]
    let baseline: [Sample]

    /// The rounds of every comparison in `comparisons`, as one comparison.
    static func pooling(_ comparisons: [Comparison]) -> Comparison {
        Comparison(
            kit: comparisons.flatMap(\.kit),
            baseline: comparisons.flatMap(\.baseline)
        )
    }

    var cpuRatio: Spread { Spread(zip(kit, baseline).map { $0.cpu / $1.cpu }) }
    var wallRatio: Spread { Spread(zip(kit, baseline).map { $0.wall / $1.wall }) }
    var kitCPU: Spread { Spread(kit.map(\.cpu)) }
    var baselineCPU: Spread { Spread(baseline.map(\.cpu)) }
    var kitWall: Spread { Spread(kit.map(\.wall)) }
    var baselineWall: Spread { Spread(baseline.map(\.wall)) }
}
