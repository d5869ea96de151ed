import Foundation
import LoadingKitNetworking
import LoadingKitTesting
import Testing

@Suite("One connection per live identity", .timeLimit(.minutes(1)))
struct LiveSharingTests {
    let mock = MockTransport()
    let url = URL(string: "https://api.example.com/events")!

    var live: LiveResource<ServerSentEvent> {
        LiveResource(url: url).reconnecting(steadyReconnection())
    }

    @Test("two followers share one connection; each gets every event")
    func shared() async {
        let body = StreamedBody()
        mock.respond(to: "/events", with: .eventStream(body))
        let webservice = Webservice(transport: mock)
        var first = UpdateReader(webservice.follow(live))
        _ = await first.state { $0 == .connected }
        var second = UpdateReader(webservice.follow(live))
        // A follower joining an open connection is told its state first.
        #expect(await second.next()?.connectionState == .connected)
        body.send("data: a\n\n")
        #expect(await first.events(1).map(\.data) == ["a"])
        #expect(await second.events(1).map(\.data) == ["a"])
        #expect(mock.requestCount(for: "/events") == 1)
        #expect(webservice.liveConnectionCount == 1)
    }

    @Test("different live resources have their own connections")
    func distinct() async {
        let a = StreamedBody()
        let b = StreamedBody()
        mock.respond(to: "/events", with: .eventStream(a))
        mock.respond(to: "/rooms/2", with: .eventStream(b))
        let webservice = Webservice(transport: mock)
        var first = UpdateReader(webservice.follow(live))
        let other = LiveResource<ServerSentEvent>(
            url: URL(string: "https://api.example.com/rooms/2")!
        )
        var second = UpdateReader(webservice.follow(other))
        _ = await first.state { $0 == .connected }
        _ = await second.state { $0 == .connected }
        #expect(webservice.liveConnectionCount == 2)
    }

    @Test("the last follower leaving closes the connection at once; one leaving before it does not")
    func lastLeaves() async {
        let body = StreamedBody()
        mock.respond(to: "/events", with: .eventStream(body))
        let webservice = Webservice(transport: mock)
        let first = webservice.follow(live)
        let second = webservice.follow(live)
        var reader = UpdateReader(second)
        _ = await reader.state { $0 == .connected }
        first.stop()
        #expect(body.hasClientLeft == false)
        #expect(webservice.liveConnectionCount == 1)
        second.stop()
        #expect(webservice.liveConnectionCount == 0)
        await body.waitUntilClientLeft()
        #expect(body.hasClientLeft)
    }

    @Test("a follower that left gets nothing sent after it left")
    func nothingAfterLeaving() async {
        let body = StreamedBody()
        mock.respond(to: "/events", with: .eventStream(body))
        let webservice = Webservice(transport: mock)
        let leaving = webservice.follow(live)
        var staying = UpdateReader(webservice.follow(live))
        _ = await staying.state { $0 == .connected }
        body.send("data: before\n\n")
        #expect(await staying.events(1).map(\.data) == ["before"])
        leaving.stop()
        body.send("data: after\n\n")
        #expect(await staying.events(1).map(\.data) == ["after"])
        var left = UpdateReader(leaving)
        let received = await left.rest().compactMap(\.rawEvent).map(\.data)
        #expect(received == ["before"])
    }

    @Test("a task that stops iterating leaves: cancelling it closes the connection")
    func cancellingLeaves() async {
        let body = StreamedBody()
        mock.respond(to: "/events", with: .eventStream(body))
        let webservice = Webservice(transport: mock)
        let following = webservice.follow(live)
        let task = Task {
            for await _ in following {}
        }
        await body.waitUntilOpened()
        task.cancel()
        await body.waitUntilClientLeft()
        #expect(webservice.liveConnectionCount == 0)
    }

    @Test("a following released without being read leaves: the connection closes")
    func releasingLeaves() async {
        let body = StreamedBody()
        mock.respond(to: "/events", with: .eventStream(body))
        let webservice = Webservice(transport: mock)
        do {
            let following = webservice.follow(live)
            await body.waitUntilOpened()
            #expect(webservice.liveConnectionCount == 1)
            _ = following
        }
        await body.waitUntilClientLeft()
        #expect(webservice.liveConnectionCount == 0)
    }

    @Test("a follower on the main actor gets every update in order, pieces sent faster than read")
    @MainActor
    func mainActorFollowerInOrder() async {
        let body = StreamedBody()
        mock.respond(to: "/events", with: .eventStream(body))
        let webservice = Webservice(transport: mock)
        var received: [String] = []
        for await update in webservice.follow(live) {
            if update.connectionState == .connected {
                for number in 1...200 {
                    body.send("data: \(number)\n\n")
                }
            }
            if let raw = update.rawEvent {
                received.append(raw.data)
                if received.count == 200 { break }
            }
        }
        #expect(received == (1...200).map(String.init))
    }

    @Test("following again after the connection closed opens a new one")
    func followAgain() async {
        let first = StreamedBody()
        let second = StreamedBody()
        mock.respond(to: "/events", with: .eventStream(first))
        mock.respond(to: "/events", with: .eventStream(second))
        let webservice = Webservice(transport: mock)
        let following = webservice.follow(live)
        await first.waitUntilOpened()
        following.stop()
        var again = UpdateReader(webservice.follow(live))
        _ = await again.state { $0 == .connected }
        #expect(mock.requestCount(for: "/events") == 2)
    }
}
