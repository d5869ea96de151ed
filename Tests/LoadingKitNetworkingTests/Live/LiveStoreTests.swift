import Foundation
import LoadingKitTesting
import Testing

@testable import LoadingKitNetworking

@Suite("Live events in the store", .timeLimit(.minutes(1)))
struct LiveStoreTests {
    let mock = MockTransport()
    let episode = Resource<Episode>(url: URL(string: "https://api.example.com/episodes/1")!)

    @Test("a pushed value is stored for a resource never loaded, and replaces a stored one")
    func replaces() async throws {
        let webservice = Webservice(transport: mock)
        webservice.push(
            Episode(id: 1, title: "pushed"),
            to: episode.identity,
            sequence: webservice.store.nextSequence()
        )
        #expect(webservice.storedValue(for: episode)?.value.title == "pushed")
        #expect(webservice.storedValue(for: episode)?.isStale == false)
        mock.respond(to: "/episodes/1", with: .json(Episode(id: 1, title: "answered")))
        _ = try await webservice.load(episode.ignoringCache())
        webservice.push(
            Episode(id: 1, title: "again"),
            to: episode.identity,
            sequence: webservice.store.nextSequence()
        )
        #expect(webservice.storedValue(for: episode)?.value.title == "again")
    }

    @Test(
        "a pushed value older than the stored answer — to a request sent after it arrived — is not applied"
    )
    func olderPushRefused() async throws {
        let webservice = Webservice(transport: mock)
        // The event arrives, and is numbered, before the request is sent.
        let arrived = webservice.store.nextSequence()
        mock.respond(to: "/episodes/1", with: .json(Episode(id: 1, title: "answered")))
        _ = try await webservice.load(episode)
        webservice.push(Episode(id: 1, title: "pushed"), to: episode.identity, sequence: arrived)
        #expect(webservice.storedValue(for: episode)?.value.title == "answered")
    }

    @Test("an edit pushed changes the stored value; an invalidation marks it stale")
    func editAndInvalidate() async throws {
        let webservice = Webservice(transport: mock)
        mock.respond(to: "/episodes/1", with: .json(Episode(id: 1, title: "Pilot")))
        _ = try await webservice.load(episode)
        let body = StreamedBody()
        mock.respond(to: "/live", with: .eventStream(body))
        let episode = episode
        let live = LiveResource<ServerSentEvent>(url: URL(string: "https://api.example.com/live")!)
            .updatingStore { event in
                event.type == "rename"
                    ? [.edit(episode) { $0 = Episode(id: 1, title: event.data) }]
                    : [.invalidate(.resource(episode))]
            }
        var reader = UpdateReader(webservice.follow(live))
        _ = await reader.state { $0 == .connected }
        body.send("event: rename\ndata: Renamed\n\n")
        _ = await reader.events(1)
        #expect(webservice.storedValue(for: episode)?.value.title == "Renamed")
        body.send("event: changed\ndata: x\n\n")
        _ = await reader.events(1)
        #expect(webservice.storedValue(for: episode)?.isStale == true)
    }

    @Test("store updates run once per event, however many follow it")
    func oncePerEvent() async {
        let webservice = Webservice(transport: mock)
        let body = StreamedBody()
        mock.respond(to: "/live", with: .eventStream(body))
        let applied = Locked(0)
        let live = LiveResource<ServerSentEvent>(url: URL(string: "https://api.example.com/live")!)
            .identified(by: "counting")
            .updatingStore { _ in
                applied.withLock { $0 += 1 }
                return []
            }
        var first = UpdateReader(webservice.follow(live))
        var second = UpdateReader(webservice.follow(live))
        _ = await first.state { $0 == .connected }
        body.send("data: 1\n\n")
        _ = await first.events(1)
        _ = await second.events(1)
        #expect(applied.withLock { $0 } == 1)
    }
}
