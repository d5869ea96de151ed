import Foundation
import LoadingKitNetworking
import LoadingKitTesting

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// The live drill: a loopback server sends numbered events with IDs and cuts the
// connection at a random byte, again and again; the follower reconnects with
// Last-Event-ID and must receive every event exactly once, in order, its memory flat.
//
//   swift run loadingkit-live-drill --events 100000 --drops 1000 --seed 1

let arguments = CommandLine.arguments
func option(_ name: String, _ fallback: Int) -> Int {
    arguments.firstIndex(of: name).flatMap { Int(arguments[$0 + 1]) } ?? fallback
}
let total = option("--events", 100_000)
let drops = option("--drops", 1_000)
let seed = UInt64(option("--seed", 1))

let plan = DropPlan(events: total, drops: drops, seed: seed)
let server = try LoopbackServer(keepsRequests: false)
server.route("/numbers") { request in
    let from = (request.header("Last-Event-ID").flatMap(Int.init) ?? 0) + 1
    guard from <= total else { return .status(204) }
    let cut = plan.cut(from: from)
    return .eventStream(
        StreamedBody { body in
            var batch = ""
            for number in from...total {
                if let cut, cut.event == number {
                    batch += String(DropPlan.text(of: number).utf8.prefix(cut.offset))!
                    body.send(batch)
                    body.drop()
                    return
                }
                batch += DropPlan.text(of: number)
                if batch.utf8.count >= 16 << 10 {
                    guard body.send(batch) else { return }
                    batch = ""
                }
            }
            body.send(batch)
            body.end()
        }
    )
}

/// Hands the memory the allocator holds free back to the system (glibc's
/// `malloc_trim`, which the Swift module of the C library does not declare).
func trimMalloc() {
    typealias Trim = @convention(c) (Int) -> Int32
    guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "malloc_trim") else { return }
    _ = unsafeBitCast(symbol, to: Trim.self)(0)
}

/// The resident memory of the process, in bytes, after the allocator gave back what it
/// holds free: the memory the process uses, whatever the allocator keeps in reserve.
func residentBytes() -> Int {
    trimMalloc()
    guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
        let pages = statm.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
    else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

let webservice = Webservice(transport: URLSessionTransport())
let live = LiveResource<ServerSentEvent>(url: server.url("/numbers"))
    .reconnecting(LiveReconnection(delay: .milliseconds(1), jitter: 0, idleTimeout: .seconds(10)))
var expected = 1
var lost = 0
var twice = 0
var connections = 0
var memoryAt10000 = 0
let started = ContinuousClock.now
for await update in webservice.follow(live) {
    switch update {
    case .event(let raw, _):
        guard let number = Int(raw.data) else {
            lost += 1
            continue
        }
        if number == expected {
            expected += 1
        } else if number < expected {
            twice += 1
        } else {
            lost += number - expected
            expected = number + 1
        }
        if number == 10_000 {
            memoryAt10000 = residentBytes()
        }
    case .state(.connected):
        connections += 1
    case .state(.stopped(let reason)):
        print("stopped: \(reason)")
    default:
        break
    }
}
// The server's threads are gone once it stops: what stays is the follower's.
server.stop()
let memoryAfter = residentBytes()
let ratio = Double(memoryAfter) / Double(max(1, memoryAt10000))
let seconds = Double(started.duration(to: .now).components.seconds)
print(
    "\(total) events, \(connections) connections, \(plan.made) cut at a random byte: "
        + "\(expected - 1 - lost) received, \(lost) lost, \(twice) twice"
)
print(
    String(
        format: "memory: %.1f MB after 10,000 events, %.1f MB after the drill (%.3f×) · %.0f s",
        Double(memoryAt10000) / 1e6,
        Double(memoryAfter) / 1e6,
        ratio,
        seconds
    )
)
if lost > 0 || twice > 0 || expected != total + 1 {
    print("error: the follower did not receive every event exactly once, in order")
    exit(1)
}
if ratio > 1.05 {
    print("error: memory grew more than 5 % over the drill")
    exit(1)
}
