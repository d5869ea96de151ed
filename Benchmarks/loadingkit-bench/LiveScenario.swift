import Dispatch
import Foundation
import LoadingKit
import LoadingKitTesting

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Live resources: the stream parser against the standard library's UTF-8 decoding and
/// line split; an event from a loopback server to a screen's `configure(value:)`
/// against a hand-written session delegate, line split and main-queue hop; 1,000
/// screens on one live resource; memory over many events and many reconnections.
@MainActor
struct LiveScenario {
    let quick: Bool

    func run() async throws -> [Row] {
        var rows = parsing()
        rows += try await eventToScreen(burst: 1)
        rows += try await eventToScreen(burst: 100)
        rows += try await thousandScreens()
        rows += try await memory()
        return rows
    }

    // MARK: - Parsing

    /// 64 MiB (4 with `--quick`) of 100-byte events in 16 KiB chunks.
    private func parsing() -> [Row] {
        let event = Data(
            ("id: 1234567\nevent: tick\ndata: " + String(repeating: "x", count: 63) + "\n\n").utf8
        )
        var stream = Data()
        while stream.count < 16 << 10 {
            stream.append(event)
        }
        let chunks = stride(from: 0, to: stream.count, by: 16 << 10).map {
            stream.subdata(in: $0..<min(stream.count, $0 + (16 << 10)))
        }
        let total = (quick ? 4 : 64) << 20
        let rounds = total / stream.count
        var kits: [Sample] = []
        var baselines: [Sample] = []
        var events = 0
        var lines = 0
        for round in 0..<(quick ? 3 : 9) {
            let kit = {
                let cpu = Measure.cpuTime()
                var parser = EventStreamParser()
                for _ in 0..<rounds {
                    for chunk in chunks {
                        events += (try? parser.parse(chunk).count) ?? 0
                    }
                }
                return Sample(cpu: Measure.cpuTime() - cpu, wall: 0)
            }
            let baseline = {
                let cpu = Measure.cpuTime()
                for _ in 0..<rounds {
                    for chunk in chunks {
                        lines +=
                            String(decoding: chunk, as: UTF8.self)
                            .split(separator: "\n", omittingEmptySubsequences: false).count
                    }
                }
                return Sample(cpu: Measure.cpuTime() - cpu, wall: 0)
            }
            if round % 2 == 0 {
                kits.append(kit())
                baselines.append(baseline())
            } else {
                baselines.append(baseline())
                kits.append(kit())
            }
        }
        precondition(events > 0 && lines > 0)
        let comparison = Comparison(kit: kits, baseline: baselines)
        return [
            Row(
                scenario: "live: parse \(total >> 20) MiB of 100-byte events",
                metric: "cpu",
                kit: comparison.kitCPU.median,
                baseline: comparison.baselineCPU.median,
                ratio: comparison.cpuRatio,
                budget: 1.5,
                note: "EventStreamParser over 16 KiB chunks vs String(decoding:) + split of them"
            )
        ]
    }

    // MARK: - An event to a screen

    /// Events pushed by a loopback server, `burst` at a time, the next burst sent once
    /// the screen configured the last: a screen following a live resource against a
    /// hand-written delegate, line split and main-queue hop.
    private func eventToScreen(burst: Int) async throws -> [Row] {
        let events = quick ? 2_000 : 20_000
        let shown = DispatchSemaphore(value: 0)
        let server = try LoopbackServer(keepsRequests: false)
        server.route("/ticks") { _ in
            .eventStream(
                StreamedBody { body in
                    var sent = 0
                    while sent < events {
                        var text = ""
                        for _ in 0..<burst {
                            sent += 1
                            text += "id: \(sent)\ndata: \(sent)\n\n"
                        }
                        guard body.send(text) else { return }
                        shown.wait()
                    }
                    body.end()
                }
            )
        }
        defer { server.stop() }
        let url = server.url("/ticks")
        var interleaved = Interleaved(rounds: quick ? 2 : 6)
        let comparison = await interleaved.compare(
            kit: {
                let screen = TickScreen(webservice: Webservice(transport: URLSessionTransport()))
                return await Measure.time(operations: events) {
                    await screen.follow(until: events, url: url, burst: burst, shown: shown)
                }
            },
            baseline: {
                let client = HandWrittenEventClient()
                return await Measure.time(operations: events) {
                    await client.follow(until: events, url: url, burst: burst, shown: shown)
                }
            }
        )
        return [
            Row(
                "live: event to configure, \(burst == 1 ? "one at a time" : "bursts of \(burst)")",
                comparison,
                budget: 1.2,
                note: "per event: a Loading screen following a LiveResource vs a hand-written "
                    + "session delegate + line split + main-queue hop"
            )
        ]
    }

    // MARK: - Many screens

    /// 1,000 screens following one live resource: the connections opened, and whether
    /// each event reached them all in one main-actor turn.
    private func thousandScreens() async throws -> [Row] {
        let body = StreamedBody()
        let server = try LoopbackServer(keepsRequests: false)
        server.route("/ticks") { _ in .eventStream(body) }
        defer { server.stop() }
        let webservice = Webservice(transport: URLSessionTransport())
        let screens = (0..<1000).map { _ in TickScreen(webservice: webservice) }
        let live = LiveResource<ServerSentEvent>(url: server.url("/ticks"))
        for screen in screens {
            screen.follow(live, startingWith: 0) { count, _ in count += 1 }
        }
        await body.waitUntilOpened()
        var inOneTurn = 0
        for tick in 1...(quick ? 5 : 20) {
            body.send("data: \(tick)\n\n")
            for await state in screens[0].states where state.content == tick { break }
            // Nothing ran between the first screen's update and this check: the others
            // were updated in the same turn, or not at all.
            inOneTurn += screens.allSatisfy { $0.loadingState.content == tick } ? 1 : 0
        }
        let connections = Double(webservice.liveConnectionCount)
        for screen in screens {
            screen.stopFollowing()
        }
        return [
            Row(
                scenario: "live: 1,000 screens on one live resource",
                metric: "count",
                kit: connections,
                baseline: 1,
                ratio: Spread([connections]),
                budget: 1,
                note: "connections open; every event reached all 1,000 in one main-actor turn: "
                    + (inOneTurn == (quick ? 5 : 20) ? "yes" : "no")
            )
        ]
    }

    // MARK: - Memory

    /// Resident memory after 10,000 events and after 1,000,000 (100,000 with
    /// `--quick`) on one connection; and after 100 and after 10,000 (1,000)
    /// reconnections.
    private func memory() async throws -> [Row] {
        let server = try LoopbackServer(keepsRequests: false)
        let total = quick ? 100_000 : 1_000_000
        server.route("/many") { _ in
            .eventStream(
                StreamedBody { body in
                    var batch = ""
                    for number in 1...total {
                        batch += "id: \(number)\ndata: \(number)\n\n"
                        if number % 200 == 0 {
                            guard body.send(batch) else { return }
                            batch = ""
                        }
                    }
                    body.send(batch)
                    body.end()
                }
            )
        }
        let reconnections = quick ? 1_000 : 10_000
        server.route("/short") { request in
            let from = request.header("Last-Event-ID").flatMap(Int.init) ?? 0
            guard from < reconnections else { return .status(204) }
            return .eventStream(
                StreamedBody { body in
                    body.send("id: \(from + 1)\ndata: \(from + 1)\n\n")
                    body.end()
                }
            )
        }
        defer { server.stop() }
        let webservice = Webservice(transport: URLSessionTransport())
        var early = 0.0
        var late = 0.0
        for await update in webservice.follow(
            LiveResource<ServerSentEvent>(url: server.url("/many"))
        ) {
            guard let number = update.rawEvent.flatMap({ Int($0.data) }) else { continue }
            if number == 10_000 {
                early = Double(Measure.residentKiB())
            } else if number == total {
                late = Double(Measure.residentKiB())
                break
            }
        }
        let quickly = LiveReconnection(delay: .zero, jitter: 0)
        var reconnectedEarly = 0.0
        var reconnectedLate = 0.0
        let short = LiveResource<ServerSentEvent>(url: server.url("/short")).reconnecting(quickly)
        for await update in webservice.follow(short) {
            guard let number = update.rawEvent.flatMap({ Int($0.data) }) else { continue }
            if number == 100 {
                reconnectedEarly = Double(Measure.residentKiB())
            } else if number == reconnections {
                reconnectedLate = Double(Measure.residentKiB())
            }
        }
        return [
            Row(
                scenario: "live: memory after \(total) / 10,000 events",
                metric: "rss",
                kit: late,
                baseline: early,
                ratio: Spread([late / early]),
                budget: 1.05,
                note: "resident memory of one follower of one connection"
            ),
            Row(
                scenario: "live: memory after \(reconnections) / 100 reconnections",
                metric: "rss",
                kit: reconnectedLate,
                baseline: reconnectedEarly,
                ratio: Spread([reconnectedLate / reconnectedEarly]),
                budget: 1.05,
                note: "resident memory; each connection one event, then the server ends it"
            ),
        ]
    }
}

/// A screen counting the events of a live resource.
@MainActor
final class TickScreen: Loading {
    let loading = LoadingCore<Int>()
    let webservice: Webservice
    private var onConfigure: ((Int) -> Void)?

    init(webservice: Webservice) {
        self.webservice = webservice
    }

    func configure(value: Int) {
        onConfigure?(value)
    }

    /// Follows `url` until `total` events were configured, signalling `shown` after
    /// each burst of `burst`.
    func follow(until total: Int, url: URL, burst: Int, shown: DispatchSemaphore) async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            var bursts = 0
            // Configured once per piece of the stream, with the events counted so far.
            onConfigure = { count in
                while bursts < count / burst {
                    bursts += 1
                    shown.signal()
                }
                if count == total {
                    done.resume()
                }
            }
            follow(LiveResource<ServerSentEvent>(url: url), startingWith: 0) { value, _ in
                value += 1
            }
        }
        onConfigure = nil
        stopFollowing()
    }
}
