import Foundation
import LoadingKit
import LoadingKitTesting

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// 100 live screens that each ask to be revalidated every second, ten showing each of
/// ten resources, over ten seconds of a manual clock, over loopback: the requests of
/// each interval against the ten a screen per resource would send — screens showing
/// one resource share one request.
@MainActor
struct PollingScenario {
    let quick: Bool
    private nonisolated static let resources = 10
    private nonisolated static let screensPerResource = 10

    func run() async throws -> [Row] {
        let server = try LoopbackServer()
        let answers = Locked(0)
        for id in 0..<Self.resources {
            server.route("/scores/\(id)") { _ in
                let answer = answers.withLock { count in
                    count += 1
                    return count
                }
                return .json(BenchItem(id: id, title: "answer \(answer)"))
            }
        }
        let clock = ManualClock()
        let webservice = Webservice(transport: URLSessionTransport())
        var screens: [PollingScreen] = []
        for id in 0..<Self.resources {
            for _ in 0..<Self.screensPerResource {
                let screen = PollingScreen(webservice: webservice, clock: clock)
                await screen.load(resource: Resource(url: server.url("/scores/\(id)")))
                screens.append(screen)
            }
        }
        // Every screen's timer waits; each interval, every screen's next one.
        var sleeps = screens.count
        await clock.waitForSleepers(sleeps)
        var perInterval: [Double] = []
        for _ in 0..<(quick ? 2 : 10) {
            let before = server.requests.count
            clock.advance(by: .seconds(1))
            sleeps += screens.count
            await clock.waitForSleepers(sleeps)
            perInterval.append(Double(server.requests.count - before))
        }
        withExtendedLifetime(screens) {}
        server.stop()
        let requests = Spread(perInterval)
        let floor = Double(Self.resources)
        return [
            Row(
                scenario: "polling: requests per interval",
                metric: "count",
                kit: requests.median,
                baseline: floor,
                ratio: Spread(perInterval.map { $0 / floor }),
                budget: 1.0,
                note: "100 screens of 10 resources polled every second vs one request per resource"
            )
        ]
    }
}

/// A screen revalidated every second on `clock` while it lives.
@MainActor
final class PollingScreen: Loading {
    let loading = LoadingCore<BenchItem>()
    let webservice: Webservice
    let loadingClock: any Clock<Duration>
    var revalidationInterval: Duration? { .seconds(1) }

    init(webservice: Webservice, clock: ManualClock) {
        self.webservice = webservice
        loadingClock = clock
    }

    func configure(value: BenchItem) {}
}
