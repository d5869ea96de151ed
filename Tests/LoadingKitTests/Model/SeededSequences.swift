import Foundation
import Testing

/// Runs the seeded sequences of a model test and expects none to break a rule.
///
/// `LOADINGKIT_MODEL_SEQUENCES` sets how many run (300 by default; CI runs 10,000); a
/// failure prints its seed, and `LOADINGKIT_MODEL_SEED` replays that one alone. With
/// `LOADINGKIT_MODEL_TRACE` set, each seed is printed as it starts, so that a sequence
/// that never ends (and meets the suite's time limit) names itself. The suites allow
/// 30 minutes: CI's 10,000 sequences of the five models at once took 6 to 11 minutes
/// on the 2-core machine, the writes and the accounts longest.
@MainActor
enum SeededSequences {
    static var count: Int {
        ProcessInfo.processInfo.environment["LOADINGKIT_MODEL_SEQUENCES"].flatMap(Int.init) ?? 300
    }

    /// Runs `sequence` for each seed, which returns the rules it saw broken.
    static func expectNoViolations(
        _ label: String,
        _ sequence: (UInt64) async -> [String]
    ) async {
        let environment = ProcessInfo.processInfo.environment
        if let seed = environment["LOADINGKIT_MODEL_SEED"].flatMap(UInt64.init) {
            let violations = await sequence(seed)
            #expect(violations.isEmpty, "seed \(seed): \(violations.joined(separator: "; "))")
            return
        }
        var failures: [String] = []
        let traces = environment["LOADINGKIT_MODEL_TRACE"] != nil
        for seed in 0..<UInt64(count) {
            if traces {
                print("\(label): seed \(seed)")
            }
            let violations = await sequence(seed)
            if !violations.isEmpty {
                failures.append("seed \(seed): \(violations.prefix(3).joined(separator: "; "))")
            }
        }
        print("\(label): \(count) sequences, \(failures.count) failed")
        #expect(failures.isEmpty, "\(failures.prefix(5).joined(separator: "\n"))")
    }
}
