import Foundation
import LoadingKit

/// The story list of `--interactive`, following the server's live stories: `l` drops
/// the stream and keeps it down, publishing a story meanwhile; `l` again lets it back,
/// and the list catches up after the last event it had.
@MainActor
final class LiveStories {
    private let server: DemoStoryServer
    private let list: StoryScreen
    private var published = 200

    init(server: DemoStoryServer, webservice: Webservice) async {
        self.server = server
        list = StoryScreen(webservice: webservice)
        let all = Story.all(on: server.baseURL)
        await list.load(resource: all)
        list.follow(LiveSteps.live(server.live, into: all))
    }

    /// Drops the stream, or lets it back, saying what the list shows.
    func toggle(renderer: TerminalRenderer) async {
        guard server.live.toggle() else {
            renderer.note("the live stream is back: reconnecting…")
            await list.waitUntil { $0.stream == .connected && $0.content?.first?.id == published }
            renderer.replaceNotes(
                with: "the live stream is back: caught up to story \(published), none missed"
            )
            return
        }
        let down = await list.waitUntil { $0.stream?.reconnection != nil }
        published += 1
        server.live.publish(Story(id: published, title: "Live story \(published)"))
        let next = down?.stream?.reconnection
        let resume = next.map {
            $0.lastEventID.isEmpty ? "from the start" : "after event \($0.lastEventID)"
        }
        renderer.note(
            "the live stream dropped: it reconnects \(resume ?? "") once back; "
                + "story \(published) published meanwhile — l brings the stream back"
        )
    }
}
