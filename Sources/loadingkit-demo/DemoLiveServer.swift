import Foundation
import LoadingKit
import LoadingKitTesting

/// The live stories of the embedded story server, at `/stories/live`: server-sent
/// events, one story each, numbered by their IDs. A connection that asks with
/// `Last-Event-ID` gets the stories published after that event first, then each new
/// one as it is published; `drop()` cuts the connection in the middle of an event.
final class DemoLiveServer: Sendable {
    private struct Feed {
        var published: [Story] = []
        var body: StreamedBody?
        /// Whether the stream is down: connections are answered `503`.
        var isDown = false
    }

    private let feed = Locked(Feed())
    /// Where the stream is.
    let url: URL

    /// Adds the live route to `server`.
    init(on server: LoopbackServer) {
        url = server.url("/stories/live")
        server.route("/stories/live") { [feed] request in
            let after = request.header("Last-Event-ID").flatMap(Int.init) ?? 0
            let body = StreamedBody()
            let missed = feed.withLock { feed -> [(offset: Int, element: Story)]? in
                guard !feed.isDown else { return nil }
                feed.body = body
                return feed.published.enumerated().filter { $0.offset + 1 > after }
            }
            guard let missed else { return .status(503, headers: ["Retry-After": "1"]) }
            for (offset, story) in missed {
                body.send(Self.event(story, number: offset + 1))
            }
            return .eventStream(body)
        }
    }

    /// Publishes `story`: sent at once on the connection open, if any, and kept for one
    /// that resumes after an earlier event.
    func publish(_ story: Story) {
        let (body, number) = feed.withLock { feed in
            feed.published.append(story)
            return (feed.body, feed.published.count)
        }
        body?.send(Self.event(story, number: number))
    }

    /// Cuts the connection open in the middle of an event.
    func drop() {
        let body = feed.withLock { feed in
            defer { feed.body = nil }
            return feed.body
        }
        body?.send("id: 999\ndata: {\"id\":")
        body?.drop()
    }

    /// Drops the stream and answers `503` to every connection until `restore()`, or
    /// lets them in again; returns whether the stream is down now.
    func toggle() -> Bool {
        let isDown = feed.withLock { feed in
            feed.isDown.toggle()
            return feed.isDown
        }
        if isDown {
            drop()
        }
        return isDown
    }

    /// The number of stories published.
    var publishedCount: Int { feed.withLock { $0.published.count } }

    private static func event(_ story: Story, number: Int) -> String {
        let data = (try? JSONEncoder().encode(story)).map { String(decoding: $0, as: UTF8.self) }
        return "id: \(number)\ndata: \(data ?? "{}")\n\n"
    }
}
