import Foundation
import LoadingKit

/// The live step of the scripted session: the story list follows the server's live
/// stories, which appear at its head as they are published; the server drops the
/// stream, the list shows it reconnecting, and catches up after the last event it had,
/// nothing missed and nothing twice.
@MainActor
struct LiveSteps {
    let stories: DemoStoryServer
    let renderer: any DemoRenderer
    let transport: any Transport
    /// Who hears the events of the step's webservice, with `--verbose`.
    let monitor: (any LoadingMonitor)?

    /// What the step showed.
    struct Outcome: Equatable {
        /// Stories the server published.
        let published: Int
        /// Those the list showed, each once.
        let shown: Int
        /// The event the reconnection resumed after.
        let resumedAfter: String
    }

    func run() async -> Outcome {
        let webservice = Webservice(transport: transport, configuration: .init(monitor: monitor))
        let all = Story.all(on: stories.baseURL)
        let list = StoryScreen(webservice: webservice)
        await list.load(resource: all)

        await renderer.step("13. Live stories")
        list.follow(Self.live(stories.live, into: all))
        await list.waitUntil { $0.stream == .connected }
        renderer.note("the list follows the server's live stories: connected")
        for id in 101...102 {
            stories.live.publish(Story(id: id, title: "Live story \(id - 100)"))
        }
        await list.waitUntil { $0.content?.first?.id == 102 }
        renderer.note("2 stories published: at the head of the list as they came")

        stories.live.drop()
        let dropped = await list.waitUntil { $0.stream?.reconnection != nil }
        let next = dropped?.stream?.reconnection
        renderer.note(
            "the server dropped the stream mid-event: reconnecting in "
                + "\(next.map { DemoFormat.milliseconds($0.delay) } ?? "?")"
                + ", after event \(next?.lastEventID ?? "?")"
        )
        for id in 103...104 {
            stories.live.publish(Story(id: id, title: "Live story \(id - 100)"))
        }
        renderer.note("2 more published while the stream was down")
        await list.waitUntil { $0.content?.first?.id == 104 && $0.stream == .connected }
        let ids = list.loadingState.content?.map(\.id).filter { $0 > 100 } ?? []
        renderer.note(
            "reconnected with Last-Event-ID \(next?.lastEventID ?? "?"): "
                + "\(ids.count) live stories shown, \(Set(ids).count) of them unique"
        )
        renderer.note("list: \(list.summary)")
        list.stopFollowing()
        return Outcome(
            published: stories.live.publishedCount,
            shown: Set(ids).count == ids.count ? ids.count : 0,
            resumedAfter: next?.lastEventID ?? ""
        )
    }

    /// The live stories, each put at the head of `list` in the store.
    static func live(_ server: DemoLiveServer, into list: Resource<[Story]>) -> LiveResource<Story>
    {
        LiveResource<Story>(url: server.url)
            .reconnecting(LiveReconnection(delay: .milliseconds(300), jitter: 0))
            .updatingStore { story in [.edit(list) { $0.insert(story, at: 0) }] }
    }
}

extension LiveConnectionState {
    /// The reconnection under way, if the state is one.
    var reconnection: LiveReconnectionAttempt? {
        guard case .reconnecting(let attempt) = self else { return nil }
        return attempt
    }
}
