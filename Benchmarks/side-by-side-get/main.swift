import Foundation
import Get

/// `side-by-side-get [--processes N] [--quick] [--server URL]`: the bench's 1 KB rounds
/// with kean/Get itself as one more route, built by `run.sh` beside a checkout of Get.
var arguments = Array(CommandLine.arguments.dropFirst())
var processes = 5
var quick = false
var server: URL?
var measurementsPath: String?
while !arguments.isEmpty {
    switch arguments.removeFirst() {
    case "--processes": processes = arguments.isEmpty ? 5 : Int(arguments.removeFirst()) ?? 5
    case "--quick": quick = true
    case "--server": server = arguments.isEmpty ? nil : URL(string: arguments.removeFirst())
    case ProcessPool.measurementsOption:
        measurementsPath = arguments.isEmpty ? nil : arguments.removeFirst()
    case ServerProcess.option: try ServerProcess.serve()
    default: break
    }
}

let get = "kean/Get 2.2.1"
var scenario = SideBySideScenario(quick: quick, server: server)
scenario.routes.append(
    SideBySide.assigning(named: get) {
        let client = APIClient(baseURL: nil) { $0.sessionConfiguration.urlCache = nil }
        return { url in try await client.send(Request<[BenchItem]>(url: url)).value }
    }
)
scenario.pairs += [
    .init(kit: get, baseline: "hand", budget: 1.08, note: "Get itself"),
    .init(kit: "PeerClient", baseline: get, budget: 1.03, note: "PeerClient stands for Get"),
    .init(kit: "screen", baseline: get, budget: 1.0, note: "a screen against Get"),
]
if let measurementsPath {
    try ProcessPool.hand(try await scenario.run(), to: measurementsPath)
    exit(0)
}
let options = (quick ? ["--quick"] : []) + (server.map { ["--server", "\($0)"] } ?? [])
let rows = try ProcessPool.measure("side-by-side", in: processes, options: options, pinnedTo: 1)
    .map(\.row)
let date = ISO8601DateFormatter().string(from: Date())
print(Report(quick: quick, date: date, rows: rows).table)
