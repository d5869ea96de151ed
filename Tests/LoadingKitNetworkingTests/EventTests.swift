import Foundation
import LoadingKitNetworking
import LoadingKitTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Events of the webservice", .timeLimit(.minutes(1)))
struct EventTests {
    let mock = MockTransport()
    let clock = ManualClock()
    let recorder = EventRecorder()
    let pilot = Episode(id: 1, title: "Pilot")
    let episode = Resource<Episode>(url: URL(string: "https://api.example.com/episodes/1")!)
    let target = "GET https://api.example.com/episodes/1"

    func webservice(retry: RetryPolicy = .none) -> Webservice {
        Webservice(
            transport: mock,
            configuration: .init(retry: retry, clock: clock, monitor: recorder)
        )
    }

    @Test("a request is reported started, then finished with its status, size and duration")
    func startedAndFinished() async throws {
        mock.respond(to: "/episodes/1", with: .json(pilot))
        _ = try await webservice().load(episode)
        #expect(recorder.lines == ["→ \(target)", "← 200 \(target) · 24 bytes · 0.0 ms"])
    }

    @Test("a failed status is reported finished, then failed with the error on one line")
    func failedStatus() async throws {
        mock.respond(to: "/episodes/1", with: .text("<html>\n<b>secret</b>\n</html>", status: 500))
        _ = try? await webservice().load(episode)
        #expect(
            recorder.lines == [
                "→ \(target)",
                "← 500 \(target) · 28 bytes · 0.0 ms",
                "✗ Bad status 500 for \(target) · 0.0 ms",
            ]
        )
        guard case .failed(.badStatus(let failure), _) = recorder.events.last?.kind else {
            Issue.record("expected a failed status")
            return
        }
        #expect(failure.statusCode == 500)
    }

    @Test("a retry is reported with its attempt and delay")
    func retried() async throws {
        mock.respond(to: "/episodes/1", with: .status(503, headers: ["Retry-After": "2"]))
        mock.respond(to: "/episodes/1", with: .json(pilot))
        let webservice = self.webservice(retry: RetryPolicy(maximumAttempts: 2))
        let load = Task { [episode] in try await webservice.load(episode) }
        await clock.run(sleeps: 1)
        _ = try await load.valuePropagatingCancellation
        #expect(
            recorder.lines == [
                "→ \(target)",
                "← 503 \(target) · 0 bytes · 0.0 ms",
                "✗ Bad status 503 for \(target) · 0.0 ms",
                "↻ \(target) attempt 2 in 2000 ms",
                "→ \(target) (attempt 2)",
                "← 200 \(target) · 24 bytes · 0.0 ms",
            ]
        )
    }

    @Test("a caller joining a request in flight is reported coalesced")
    func coalesced() async throws {
        let gate = MockTransport.Gate()
        mock.respond(to: "/episodes/1", with: .json(pilot), after: gate)
        let webservice = self.webservice()
        let first = Task { [episode] in try await webservice.load(episode) }
        await gate.waitForArrivals()
        let second = Task { [episode] in try await webservice.load(episode) }
        await recorder.waitForEvents(2)
        gate.open()
        _ = try await (first.value, second.value)
        #expect(recorder.lines.filter { $0.hasPrefix("→") }.count == 1)
        #expect(recorder.lines.contains("⇢ \(target) joins the identical request in flight"))
    }

    @Test("a 304 is reported not modified")
    func notModified() async throws {
        mock.respond(to: "/episodes/1", with: .json(pilot, headers: ["ETag": #""v1""#]))
        mock.respond(to: "/episodes/1", with: .status(304))
        let webservice = self.webservice()
        _ = try await webservice.load(episode)
        recorder.removeAll()
        _ = try await webservice.load(episode)
        #expect(recorder.lines.last == "= \(target) not modified: the stored value stands")
    }

    @Test("a cancelled request is reported cancelled, not failed")
    func cancelled() async throws {
        let gate = MockTransport.Gate()
        mock.respond(to: "/episodes/1", with: .json(pilot), after: gate)
        let webservice = self.webservice()
        let load = Task { [episode] in try await webservice.load(episode) }
        await gate.waitForArrivals()
        load.cancel()
        _ = try? await load.valuePropagatingCancellation
        // The request's own task reports it, after the caller has left.
        await recorder.waitForEvents(2)
        #expect(recorder.lines == ["→ \(target)", "⊘ \(target) cancelled"])
    }

    @Test("a Link to another origin is reported refused, naming the origin only")
    func linkRefused() async throws {
        mock.respond(
            to: "/items",
            with: .json(
                [1, 2],
                headers: [
                    "Link": #"<https://elsewhere.example:8443/items?page=2&token=t>; rel="next""#
                ]
            )
        )
        let page = Resource<Page<Int, URL>>.linked(
            url: URL(string: "https://api.example.com/items")!
        )
        #expect(try await webservice().load(page).next == nil)
        #expect(
            recorder.lines.last
                == "⛔ GET https://api.example.com/items links to another origin, not followed: https://elsewhere.example:8443"
        )
    }

    @Test("a Link header with unreadable values is reported, saying how many, never what")
    func linkMalformed() async throws {
        mock.respond(
            to: "/items",
            with: .json(
                [1, 2],
                headers: [
                    "Link":
                        #"/items?page=2&token=t; rel="next", <https://api.example.com/items?page=9"#
                ]
            )
        )
        let page = Resource<Page<Int, URL>>.linked(
            url: URL(string: "https://api.example.com/items")!
        )
        #expect(try await webservice().load(page).next == nil)
        #expect(
            recorder.lines.last
                == "⚠ GET https://api.example.com/items has a Link header with 2 unreadable values, left out"
        )
        #expect(recorder.events.last?.kind == .linkMalformed(valuesLeftOut: 2))
    }

    @Test("lines show no user, password, fragment or query value unless asked")
    func redaction() {
        let url = URL(string: "https://me:hunter2@api.example.com/feed?page=2&api_key=k3y#top")!
        let event = LoadingEvent(kind: .started(attempt: 1), method: .get, url: url)
        #expect(event.description == "→ GET https://api.example.com/feed?page=…&api_key=…")
        #expect(
            event.line(showingQueryValues: true)
                == "→ GET https://api.example.com/feed?page=2&api_key=k3y"
        )
        let lines = Locked<[String]>([])
        LoadingEventPrinter { line in lines.withLock { $0.append(line) } }.record(event)
        #expect(lines.withLock { $0 } == [event.description])
    }

    @Test("a stream hands events on in order")
    func stream() async throws {
        mock.respond(to: "/episodes/1", with: .json(pilot))
        let monitor = LoadingEventStream()
        let webservice = Webservice(transport: mock, configuration: .init(monitor: monitor))
        _ = try await webservice.load(episode)
        var kinds: [String] = []
        for await event in monitor.events.prefix(2) {
            kinds.append(String(event.description.prefix(1)))
        }
        #expect(kinds == ["→", "←"])
    }

    @Test("a stream ends when its monitor is released, after the events left unread")
    func streamEnds() async {
        var monitor: LoadingEventStream? = LoadingEventStream()
        let events = monitor!.events
        monitor?.record(LoadingEvent(kind: .coalesced, method: .get, url: nil))
        monitor = nil
        var count = 0
        for await _ in events {
            count += 1
        }
        #expect(count == 1)
    }
}
