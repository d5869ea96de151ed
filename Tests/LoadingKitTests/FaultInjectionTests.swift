import Foundation
import LoadingKit
import LoadingKitTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A paginated list over real HTTP while the server misbehaves in every way it can.
@MainActor
@Suite("Faults over real HTTP", .timeLimit(.minutes(1)))
struct FaultInjectionTests {
    enum Fault: Sendable {
        case closeMidBody
        case garbage
        case oversized
        case slowerThanTimeout
        case unavailable(retryAfter: String)
    }

    /// A feed of 10 pages of 10 issues, `Link`-chained, that answers each page's next
    /// requests with the faults planned for it.
    final class FaultyFeed: Sendable {
        let issues = (1...100).map { GitHubIssue(id: $0, number: $0, title: "Issue \($0)") }
        let plan = Locked<[Int: [Fault]]>([:])

        func answer(_ request: LoopbackServer.Request) -> MockResponse {
            let page = Int(request.query("page") ?? "1") ?? 1
            let response = MockResponse.json(
                Array(issues[(page - 1) * 10..<page * 10]),
                headers: page < 10 ? [("Link", "</issues?page=\(page + 1)>; rel=\"next\"")] : []
            )
            let fault = plan.withLock { plan in
                plan[page]?.isEmpty == false ? plan[page]!.removeFirst() : nil
            }
            switch fault {
            case nil: return response
            case .closeMidBody: return response.truncated(afterBodyBytes: 20)
            case .garbage:
                return .garbage(Data("SSH-2.0-OpenSSH_9.0\r\nProtocol mismatch.\r\n".utf8))
            case .oversized:
                return .init(body: Data(repeating: UInt8(ascii: " "), count: 64 * 1024))
            case .slowerThanTimeout: return response.trickled(in: 2, every: .milliseconds(2500))
            case .unavailable(let retryAfter):
                return .text("busy", status: 503, headers: [("Retry-After", retryAfter)])
            }
        }
    }

    /// A list whose webservice the test swaps.
    @MainActor
    final class FaultScreen: Paginating {
        let loading = LoadingCore<[GitHubIssue]>()
        var webservice: Webservice
        let firstPage: URL

        init(webservice: Webservice, firstPage: URL) {
            self.webservice = webservice
            self.firstPage = firstPage
        }

        func configure(value: [GitHubIssue]) {}

        func resource(forPage next: URL?) -> Resource<Page<GitHubIssue, URL>> {
            .linked(url: next ?? firstPage)
        }
    }

    @Test("every fault is typed, keeps the list, and the list ends equal to the server's")
    func faultsThenRecovery() async throws {
        let feed = FaultyFeed()
        feed.plan.withLock {
            $0 = [
                2: [.closeMidBody], 3: [.garbage], 4: [.oversized], 5: [.slowerThanTimeout],
                6: [.unavailable(retryAfter: "1"), .unavailable(retryAfter: "1")],
            ]
        }
        var server = try LoopbackServer()
        server.route("/issues", handler: feed.answer)
        let port = server.port
        let transport = URLSessionTransport(
            configuration: .init(maximumResponseSize: 16 * 1024, timeout: 1)
        )
        let plain = Webservice(transport: transport, configuration: .init(revalidates: false))
        let clock = ManualClock()
        let retrying = Webservice(
            transport: transport,
            configuration: .init(retry: .standard, revalidates: false, clock: clock)
        )
        let screen = FaultScreen(webservice: plain, firstPage: server.url("/issues?page=1"))
        await screen.loadFirstPage()
        #expect(screen.loadingState.content?.count == 10)

        // Pages 2 to 5 each fail once, typed, keeping what was loaded; the retry asks
        // for the same page and succeeds.
        for (page, expected) in [
            (2, "transport"), (3, "transport"), (4, "tooLarge"), (5, "timedOut"),
        ] {
            let before = screen.loadingState.content
            await screen.loadNextPage()
            let error = try #require(screen.pagination.pageError, "page \(page) should have failed")
            #expect(kind(of: error) == expected, "page \(page): \(error)")
            #expect(screen.loadingState.content == before)
            #expect(screen.loadingState.placeholder == .content)
            await screen.loadNextPage()
            #expect(
                screen.pagination.pageError == nil,
                "page \(page) retry: \(String(describing: screen.pagination.pageError))"
            )
            #expect(screen.loadingState.content?.count == page * 10)
        }

        // Page 6 answers 503 with Retry-After twice; the retrying webservice waits on
        // the injected clock and gets it.
        screen.webservice = retrying
        let sixth = screen.startLoadingNextPage()
        for sleeper in 1...2 {
            await clock.waitForSleepers(sleeper)
            clock.advance(by: .seconds(1))
        }
        await sixth.finish()
        #expect(clock.sleeps == [.seconds(1), .seconds(1)])
        #expect(screen.loadingState.content?.count == 60)
        screen.webservice = plain

        // The server stops during pagination, then comes back on the same port.
        server.stop()
        await screen.loadNextPage()
        let outage = try #require(screen.pagination.pageError)
        #expect(kind(of: outage) == "transport")
        #expect(screen.loadingState.content?.count == 60)
        server = try LoopbackServer(port: port)
        server.route("/issues", handler: feed.answer)
        for _ in 0..<3 where screen.pagination.hasMorePages {
            await screen.loadNextPage()
            while screen.pagination.pageError == nil && screen.pagination.hasMorePages {
                await screen.loadNextPage()
            }
        }
        #expect(screen.loadingState.content == feed.issues)
        #expect(!screen.pagination.hasMorePages)
    }

    private func kind(of error: LoadingError) -> String {
        switch error {
        case .webservice(.transport(let failure)) where failure.code == .timedOut: "timedOut"
        case .webservice(.transport): "transport"
        case .webservice(.responseTooLarge): "tooLarge"
        default: "\(error)"
        }
    }
}
