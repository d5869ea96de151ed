import Foundation

/// `loadingkit-bench [scenario…] [--json PATH] [--processes N] [--server URL] [--quick]`
let usage = """
    usage: loadingkit-bench [scenario…] [--json PATH] [--processes N] [--server URL] [--quick]

    scenarios: side-by-side, http, mock-cycle, pagination, refresh-merge, coalescing,
      memory, store, workload, outbox, mutation, polling, live
      (default: all)
      --json PATH      also write the results as JSON to PATH
      --processes N    run the side-by-side and http rows in N processes, one after
                       the other, and pool their rounds (default 5; 1, in this
                       process, with --quick)
      --server URL     the side-by-side rows load the 1 KB list from URL, served by
                       another server (nginx, say) instead of a child of this one
      --quick          a short run that checks every scenario executes
    """

var arguments = Array(CommandLine.arguments.dropFirst())
var jsonPath: String?
var measurementsPath: String?
var processes: Int?
var quick = false
var serverURL: URL?
var selected: [String] = []
while !arguments.isEmpty {
    let argument = arguments.removeFirst()
    switch argument {
    case "--json":
        guard let path = arguments.first, !path.hasPrefix("-") else {
            print(usage)
            exit(2)
        }
        arguments.removeFirst()
        jsonPath = path
    case "--processes":
        guard let count = arguments.first.flatMap(Int.init), count > 0 else {
            print(usage)
            exit(2)
        }
        arguments.removeFirst()
        processes = count
    case ProcessPool.measurementsOption:
        guard !arguments.isEmpty else {
            print(usage)
            exit(2)
        }
        measurementsPath = arguments.removeFirst()
    case "--quick":
        quick = true
    case "--server":
        guard let url = arguments.first.flatMap(URL.init(string:)) else {
            print(usage)
            exit(2)
        }
        arguments.removeFirst()
        serverURL = url
    case ServerProcess.option:
        try ServerProcess.serve()
    case "--help", "-h":
        print(usage)
        exit(0)
    case _ where argument.hasPrefix("-"):
        FileHandle.standardError.write(Data("unknown option: \(argument)\n\n\(usage)\n".utf8))
        exit(2)
    default:
        selected.append(argument)
    }
}

let all = [
    "side-by-side", "http", "mock-cycle", "pagination", "refresh-merge", "coalescing", "memory",
    "store",
    "workload", "outbox", "mutation", "polling", "live",
]
if let unknown = selected.first(where: { !all.contains($0) }) {
    FileHandle.standardError.write(Data("unknown scenario: \(unknown)\n\n\(usage)\n".utf8))
    exit(2)
}
let scenarios = selected.isEmpty ? all : selected

#if DEBUG
    print("note: a debug build; run with `swift run -c release loadingkit-bench` for figures\n")
#endif

if let measurementsPath {
    // A child of `ProcessPool`: measures its scenario's rows and hands them to its parent.
    let measurements =
        scenarios == ["side-by-side"]
        ? try await SideBySideScenario(quick: quick, server: serverURL).run()
        : try await HTTPScenario(quick: quick).run()
    try ProcessPool.hand(measurements, to: measurementsPath)
    exit(0)
}

var rows: [Row] = []
var failed = false
let mock = MockScenarios(quick: quick)
let httpProcesses = processes ?? (quick ? 1 : 5)
for scenario in scenarios {
    do {
        switch scenario {
        case "http" where httpProcesses > 1:
            let options = quick ? ["--quick"] : []
            rows += try ProcessPool.measure(scenario, in: httpProcesses, options: options).map(
                \.row
            )
        case "side-by-side" where httpProcesses > 1:
            let options =
                (quick ? ["--quick"] : []) + (serverURL.map { ["--server", "\($0)"] } ?? [])
            rows += try ProcessPool.measure(
                scenario,
                in: httpProcesses,
                options: options,
                pinnedTo: 1
            ).map(\.row)
        case "http": rows += try await HTTPScenario(quick: quick).run().map(\.row)
        case "mock-cycle": rows += try await mock.mockCycle()
        case "pagination": rows += try await mock.paginationScaling()
        case "refresh-merge": rows += try await mock.refreshMerge()
        case "coalescing": rows += try await mock.coalescing()
        case "store": rows += try await StoreScenarios(quick: quick).run()
        case "workload": rows += try await WorkloadScenario(quick: quick).run()
        case "outbox": rows += try await OutboxScenario(quick: quick).run()
        case "mutation": rows += try await MutationScenario(quick: quick).run()
        case "polling": rows += try await PollingScenario(quick: quick).run()
        case "live": rows += try await LiveScenario(quick: quick).run()
        case "side-by-side":
            rows += try await SideBySideScenario(quick: quick, server: serverURL).run().map(\.row)
        default: rows += try await mock.memory()
        }
    } catch {
        print("scenario \(scenario) failed: \(error)")
        failed = true
    }
}

let report = Report(quick: quick, date: ISO8601DateFormatter().string(from: Date()), rows: rows)
print(report.table)
if let jsonPath {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    try encoder.encode(report).write(to: URL(fileURLWithPath: jsonPath))
}
exit(failed ? 1 : 0)
