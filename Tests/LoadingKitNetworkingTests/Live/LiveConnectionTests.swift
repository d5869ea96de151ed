import Foundation
import LoadingKitNetworking
import LoadingKitTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Following a live resource", .timeLimit(.minutes(1)))
struct LiveConnectionTests {
    let mock = MockTransport()
    let clock = ManualClock()
    let url = URL(string: "https://api.example.com/events")!

    func webservice(authenticator: Authenticator? = nil) -> Webservice {
        Webservice(
            transport: mock,
            configuration: .init(clock: clock, authenticator: authenticator)
        )
    }

    var raw: LiveResource<ServerSentEvent> {
        LiveResource(url: url).reconnecting(steadyReconnection())
    }

    @Test("each event arrives raw and decoded, in order, after the state says connected")
    func eventsInOrder() async throws {
        let body = StreamedBody()
        mock.respond(to: "/events", with: .eventStream(body))
        let episodes = LiveResource<Episode>(url: url).reconnecting(steadyReconnection())
        var reader = UpdateReader(webservice().follow(episodes))
        #expect(await reader.state() == .connecting)
        #expect(await reader.state() == .connected)
        body.send("id: 1\nevent: episode\ndata: {\"id\":1,\"title\":\"Pilot\"}\n\n")
        body.send("id: 2\ndata: {\"id\":2,")
        body.send("\"title\":\"Two\"}\n\n")
        guard case .event(let first, let pilot) = await reader.next() else {
            Issue.record("no first event")
            return
        }
        #expect(
            first
                == ServerSentEvent(
                    type: "episode",
                    data: #"{"id":1,"title":"Pilot"}"#,
                    lastEventID: "1"
                )
        )
        #expect(pilot == Episode(id: 1, title: "Pilot"))
        #expect(await reader.next()?.value == Episode(id: 2, title: "Two"))
    }

    @Test("an event whose data cannot be decoded is reported, and the stream goes on")
    func undecodable() async {
        let body = StreamedBody()
        mock.respond(to: "/events", with: .eventStream(body))
        let episodes = LiveResource<Episode>(url: url).reconnecting(steadyReconnection())
        var reader = UpdateReader(webservice().follow(episodes))
        _ = await reader.state { $0 == .connected }
        body.send("data: <html>\n\ndata: {\"id\":3,\"title\":\"Three\"}\n\n")
        guard case .undecodable(let raw, .webservice(.decoding)) = await reader.next() else {
            Issue.record("the undecodable event was not reported as a decoding failure")
            return
        }
        #expect(raw.data == "<html>")
        #expect(await reader.next()?.value == Episode(id: 3, title: "Three"))
    }

    @Test(
        "after the stream ends it waits the reconnection time, then asks again with Last-Event-ID"
    )
    func reconnectsWithLastEventID() async {
        let first = StreamedBody()
        let second = StreamedBody()
        mock.respond(to: "/events", with: .eventStream(first))
        mock.respond(to: "/events", with: .eventStream(second))
        var reader = UpdateReader(webservice().follow(raw))
        _ = await reader.state { $0 == .connected }
        first.send("id: 7\ndata: seven\n\n")
        first.end()
        let next = await reader.state { $0.isReconnecting }?.reconnection
        #expect(next?.delay == .seconds(1))
        #expect(next?.reason == .ended)
        #expect(next?.lastEventID == "7")
        #expect(next?.number == 2)
        await clock.waitForSleepers(1)
        #expect(mock.requestCount(for: "/events") == 1)
        clock.advance(by: .seconds(1))
        _ = await reader.state { $0 == .connected }
        #expect(mock.requests.last?.value(forHTTPHeaderField: "Last-Event-ID") == "7")
        #expect(mock.requests.first?.value(forHTTPHeaderField: "Last-Event-ID") == nil)
        #expect(mock.requests.last?.value(forHTTPHeaderField: "Accept") == "text/event-stream")
    }

    @Test("the server's retry: sets the reconnection time")
    func serverRetry() async {
        let body = StreamedBody()
        mock.respond(to: "/events", with: .eventStream(body))
        var reader = UpdateReader(webservice().follow(raw))
        _ = await reader.state { $0 == .connected }
        body.send("retry: 250\n\n")
        body.end()
        #expect(await reader.state { $0.isReconnecting }?.reconnection?.delay == .milliseconds(250))
    }

    @Test("the initial reconnection time is the caller's until the server sets one")
    func callerReconnectionTime() async {
        let body = StreamedBody()
        mock.respond(to: "/events", with: .eventStream(body))
        var reader = UpdateReader(
            webservice().follow(raw.reconnecting(steadyReconnection(delay: .milliseconds(300))))
        )
        _ = await reader.state { $0 == .connected }
        body.end()
        #expect(await reader.state { $0.isReconnecting }?.reconnection?.delay == .milliseconds(300))
    }

    @Test(
        "a connection dropped in the middle of an event loses it to no one: the next resumes after the last whole event"
    )
    func droppedMidEvent() async {
        let first = StreamedBody()
        let second = StreamedBody()
        mock.respond(to: "/events", with: .eventStream(first))
        mock.respond(to: "/events", with: .eventStream(second))
        var reader = UpdateReader(webservice().follow(raw))
        _ = await reader.state { $0 == .connected }
        first.send("id: 1\ndata: one\n\nid: 2\ndata: tw")
        first.drop()
        #expect(await reader.events(1).map(\.data) == ["one"])
        let next = await reader.state { $0.isReconnecting }?.reconnection
        #expect(next?.lastEventID == "1")
        guard case .failed(.webservice(.transport(let failure))) = next?.reason else {
            Issue.record("the drop was not reported as a transport failure")
            return
        }
        #expect(failure.code == .networkConnectionLost)
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(1))
        _ = await reader.state { $0 == .connected }
        #expect(mock.requests.last?.value(forHTTPHeaderField: "Last-Event-ID") == "1")
        second.send("id: 2\ndata: two\n\n")
        #expect(await reader.events(1) == [ServerSentEvent(data: "two", lastEventID: "2")])
    }

    @Test("204 stops the stream for good: no reconnection, the updates end")
    func noContentStops() async {
        mock.respond(to: "/events", with: .status(204))
        let webservice = webservice()
        var reader = UpdateReader(webservice.follow(raw))
        #expect(await reader.state { $0.stop != nil } == .stopped(.noContent))
        #expect(await reader.next() == nil)
        #expect(mock.requestCount(for: "/events") == 1)
        #expect(webservice.liveConnectionCount == 0)
    }

    @Test("a status such as 404 stops, with the status; so does an HTML page answered 200")
    func fatalAnswers() async {
        mock.respond(to: "/events", with: .text("gone", status: 404))
        var reader = UpdateReader(webservice().follow(raw))
        let stopped = await reader.state { $0.stop != nil }
        guard case .stopped(.failed(.webservice(.badStatus(let failure)))) = stopped else {
            Issue.record("a 404 did not stop the stream with its status")
            return
        }
        #expect(failure.statusCode == 404)

        let html = MockResponse(
            statusCode: 200,
            headers: ["Content-Type": "text/html"],
            body: Data("<h1>hi</h1>".utf8)
        )
        mock.respond(to: "/events", with: html)
        var second = UpdateReader(webservice().follow(raw))
        #expect(
            await second.state { $0.stop != nil }
                == .stopped(.failed(.unexpectedContentType("text/html")))
        )
    }

    @Test("503 with Retry-After waits what the server asked, then connects again")
    func retryAfter() async {
        mock.respond(to: "/events", with: .status(503, headers: ["Retry-After": "7"]))
        let body = StreamedBody()
        mock.respond(to: "/events", with: .eventStream(body))
        var reader = UpdateReader(webservice().follow(raw))
        let next = await reader.state { $0.isReconnecting }?.reconnection
        #expect(next?.delay == .seconds(7))
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(7))
        #expect(await reader.state { $0 == .connected } == .connected)
    }

    @Test("failures in a row back off: each wait is the multiplier times the one before")
    func backoff() async {
        for _ in 0..<3 {
            mock.respond(to: "/events", with: .status(500))
        }
        let body = StreamedBody()
        mock.respond(to: "/events", with: .eventStream(body))
        var reader = UpdateReader(webservice().follow(raw))
        var delays: [Duration] = []
        for sleep in 1...3 {
            delays.append(await reader.state { $0.isReconnecting }?.reconnection?.delay ?? .zero)
            await clock.waitForSleepers(sleep)
            clock.advance(by: delays.last!)
        }
        #expect(delays == [.seconds(1), .seconds(2), .seconds(4)])
        #expect(await reader.state { $0 == .connected } == .connected)
        body.end()
        // A stream that delivered starts the backoff over.
        #expect(await reader.state { $0.isReconnecting }?.reconnection?.delay == .seconds(1))
    }

    @Test("a connection silent for the idle timeout is made again")
    func idleTimeout() async {
        let silent = StreamedBody()
        let second = StreamedBody()
        mock.respond(to: "/events", with: .eventStream(silent))
        mock.respond(to: "/events", with: .eventStream(second))
        let live = raw.reconnecting(steadyReconnection(idleTimeout: .seconds(10)))
        var reader = UpdateReader(webservice().follow(live))
        _ = await reader.state { $0 == .connected }
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(6))
        silent.send(": a comment counts as a byte\n")
        silent.send("data: ping\n\n")
        _ = await reader.events(1)
        // Due at 10 s, the watch finds a byte at 6 s and waits until 16 s.
        clock.advance(by: .seconds(4))
        await clock.waitForSleepers(2)
        #expect(silent.hasClientLeft == false)
        clock.advance(by: .seconds(6))
        let next = await reader.state { $0.isReconnecting }?.reconnection
        #expect(next?.reason == .idle)
        await silent.waitUntilClientLeft()
        #expect(silent.hasClientLeft)
    }

    @Test("between connections the idle watch sleeps no more, and watches the next from its start")
    func idleWatchRests() async {
        let first = StreamedBody()
        let second = StreamedBody()
        mock.respond(to: "/events", with: .eventStream(first))
        mock.respond(to: "/events", with: .eventStream(second))
        let live = raw.reconnecting(
            steadyReconnection(delay: .seconds(30), idleTimeout: .seconds(10))
        )
        var reader = UpdateReader(webservice().follow(live))
        _ = await reader.state { $0 == .connected }
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(10))
        #expect(await reader.state { $0.isReconnecting }?.reconnection?.reason == .idle)
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(30))
        _ = await reader.state { $0 == .connected }
        await clock.waitForSleepers(1)
        // The idle sleep, the reconnection's wait, the next idle sleep: nothing else.
        #expect(clock.sleeps == [.seconds(10), .seconds(30), .seconds(10)])
        clock.advance(by: .seconds(10))
        #expect(await reader.state { $0.isReconnecting }?.reconnection?.reason == .idle)
        await second.waitUntilClientLeft()
    }

    @Test("an idle timeout of zero is no timeout: the connection is kept and no watch runs")
    func zeroIdleTimeout() async {
        let body = StreamedBody()
        mock.respond(to: "/events", with: .eventStream(body))
        let live = raw.reconnecting(steadyReconnection(idleTimeout: .zero))
        var reader = UpdateReader(webservice().follow(live))
        _ = await reader.state { $0 == .connected }
        body.send("data: one\n\n")
        #expect(await reader.next()?.rawEvent?.data == "one")
        body.send("data: two\n\n")
        #expect(await reader.next()?.rawEvent?.data == "two")
        #expect(clock.sleeps.isEmpty)
        #expect(mock.requests.count == 1)
    }

    @Test("one idle watch serves every connection: 20 short ones start one idle sleep, not 20")
    func oneIdleWatch() async {
        // A sleep on the standard clocks holds its timer until its deadline even when
        // cancelled: a watch per connection held memory for each short one.
        for number in 1...20 {
            mock.respond(
                to: "/events",
                with: .eventStream(
                    StreamedBody { body in
                        body.send("id: \(number)\ndata: \(number)\n\n")
                        body.end()
                    }
                )
            )
        }
        mock.respond(to: "/events", with: .status(204))
        let live = raw.reconnecting(steadyReconnection(delay: .zero, idleTimeout: .seconds(10)))
        var reader = UpdateReader(webservice().follow(live))
        let updates = await reader.rest()
        #expect(updates.compactMap(\.rawEvent).map(\.data) == (1...20).map(String.init))
        #expect(updates.last?.connectionState == .stopped(.noContent))
        #expect(clock.sleeps.filter { $0 == .seconds(10) }.count == 1)
    }

    @Test(
        "a line over the limit stops the stream with a typed error, and what came before it stays delivered"
    )
    func lineTooLong() async {
        let body = StreamedBody()
        mock.respond(to: "/events", with: .eventStream(body))
        let live = LiveResource<ServerSentEvent>(
            url: url,
            framing: .serverSentEvents.maximumLineLength(64)
        )
        .reconnecting(steadyReconnection())
        var reader = UpdateReader(webservice().follow(live))
        _ = await reader.state { $0 == .connected }
        body.send("data: fits\n\n")
        body.send("data: " + String(repeating: "x", count: 100))
        let rest = await reader.rest()
        #expect(rest.compactMap(\.rawEvent).map(\.data) == ["fits"])
        #expect(rest.last?.connectionState == .stopped(.failed(.lineTooLong(limit: 64))))
        await body.waitUntilClientLeft()
    }

    @Test("a 401 with an authenticator renews the credential once and reconnects with it")
    func renewsOnce() async {
        let authenticator = Authenticator(credential: Credential(account: "a", bearer: "old")) {
            expired in
            Credential(account: expired.account, bearer: "new")
        }
        mock.respond(to: "/events", with: .status(401))
        let body = StreamedBody()
        mock.respond(to: "/events", with: .eventStream(body))
        var reader = UpdateReader(webservice(authenticator: authenticator).follow(raw))
        _ = await reader.state { $0 == .connected }
        #expect(
            mock.requests.map { $0.value(forHTTPHeaderField: "Authorization") } == [
                "Bearer old", "Bearer new",
            ]
        )
    }

    @Test("a renewed credential refused again stops the stream")
    func renewedRefused() async {
        let authenticator = Authenticator(credential: Credential(account: "a", bearer: "old")) {
            expired in
            Credential(account: expired.account, bearer: "new")
        }
        mock.respond(to: "/events", with: .status(401))
        mock.respond(to: "/events", with: .status(401))
        var reader = UpdateReader(webservice(authenticator: authenticator).follow(raw))
        #expect(
            await reader.state { $0.stop != nil }
                == .stopped(.failed(.webservice(.authentication(.refused))))
        )
        #expect(mock.requestCount(for: "/events") == 2)
    }

    @Test("a transport that cannot stream stops the stream with a typed error")
    func transportCannotStream() async {
        struct Plain: Transport {
            func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
                throw URLError(.badURL)
            }
        }
        var reader = UpdateReader(Webservice(transport: Plain()).follow(raw))
        #expect(await reader.state { $0.stop != nil } == .stopped(.failed(.transportCannotStream)))
    }
}
