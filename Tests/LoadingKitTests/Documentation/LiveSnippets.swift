import Foundation
import LoadingKit
import LoadingKitTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// The code of the "Live resources" article and the README's live resources, compiled
// here as in DocumentationSnippets.swift. They only need to compile: none of them runs.

/// The "Live resources" article's types, apart from the other articles' `Story`.
enum LiveResourcesArticle {
    // snippet: live-feed
    struct Story: Codable, Sendable, Identifiable {
        let id: Int
        let title: String
        static let feed = Resource<[Story]>(url: URL(string: "https://api.example.com/stories")!)
        static let live = LiveResource<Story>(url: URL(string: "https://api.example.com/live")!)
            .updatingStore { story in [.edit(feed) { $0.insert(story, at: 0) }] }
    }

    @MainActor final class FeedScreen: Loading {
        let loading = LoadingCore<[Story]>()  // the rows: draw from loadingState.content
        var resource: Resource<[Story]>? { Story.feed }  // what loadingDidAppear() loads
        func configure(value: [Story]) { print(value.first?.title ?? "no stories yet") }
        init() { follow(Story.live) }  // each story pushed lands in the stored feed
    }
    // end snippet

    // snippet: live-answer
    struct Token: Decodable, Sendable {
        let text: String
    }

    @MainActor final class AnswerScreen: Loading {
        let loading = LoadingCore<String>()
        private(set) var answer = ""
        func configure(value: String) { answer = value }  // the text so far, as it grows

        func ask(_ question: Int) {
            let url = URL(string: "https://api.example.com/questions/\(question)/answer")!
            follow(LiveResource<Token>(url: url), startingWith: "") { text, token in
                text += token.text
            }
        }
    }
    // end snippet
}

extension LiveResourcesArticle {
    @MainActor
    static func readme(feed: FeedScreen, answer: AnswerScreen, tokens: LiveResource<Token>) {
        // snippet: readme-live
        let live = LiveResource<Story>(url: URL(string: "https://api.example.com/live")!)
            .updatingStore { story in [.edit(Story.feed) { $0.insert(story, at: 0) }] }
        feed.follow(live)  // every screen showing Story.feed shows each story pushed
        answer.follow(tokens, startingWith: "") { text, token in text += token.text }
        print(feed.loadingState.stream?.description ?? "not following")  // connected…
        // end snippet
    }

    static func lines(webservice: Webservice) async {
        // snippet: live-lines
        struct Tick: Decodable, Sendable {
            let symbol: String
            let price: Double
        }

        let url = URL(string: "https://api.example.com/ticks")!
        let ticks = LiveResource<Tick>(url: url, framing: .jsonLines)  // one JSON value a line
        for await update in webservice.follow(ticks) {  // no screen: every update, in order
            switch update {
            case .event(_, let tick): print(tick.symbol, tick.price)
            case .undecodable(let raw, let error): print("skipped \(raw): \(error)")
            case .state(let state): print(state)  // connecting, connected, reconnecting…
            }
        }
        // end snippet
    }

    @MainActor
    static func state(feed: FeedScreen) {
        // snippet: live-state
        switch feed.loadingState.stream {
        case nil: break  // following nothing
        case .connecting: print("connecting…")
        case .connected: print("live")
        case .reconnecting(let next): print("reconnecting in \(next.delay) after \(next.reason)")
        case .stopped(let reason): print("stopped: \(reason)")  // a 204, a 404, a line too long…
        }
        // end snippet
    }

    static func testingWithAMock() async {
        // snippet: live-testing-mock
        let body = StreamedBody()  // the server's side of the stream, written by the test
        let mock = MockTransport()
        mock.respond(to: "/live", with: .eventStream(body))  // text/event-stream, held open
        let following = Webservice(transport: mock).follow(Story.live)
        body.send("id: 1\ndata: {\"id\": 1, \"title\": \"Pilot\"}\n\n")
        for await story in following.values {
            #expect(story.title == "Pilot")
            following.stop()  // the last follower leaves: the connection closes at once
        }
        // end snippet
    }

    static func testingOnALoopbackServer() async throws {
        // snippet: live-testing-loopback
        let server = try LoopbackServer(keepsRequests: false)  // a long drill: requests counted
        server.route("/live") { request in  // a body of its own for each connection
            let id = (request.header("Last-Event-ID").flatMap(Int.init) ?? 0) + 1
            return .eventStream(
                StreamedBody { body in  // written on a thread of its own
                    body.send("id: \(id)\ndata: {\"id\": \(id), \"title\": \"Story \(id)\"}\n\n")
                    body.drop()  // the connection is lost: the client resumes after `id`
                }
            )
        }
        let live = LiveResource<Story>(url: server.url("/live"))
            .reconnecting(LiveReconnection(delay: .milliseconds(10)))
        let following = Webservice(transport: URLSessionTransport()).follow(live)
        for await story in following.values where story.id == 3 {
            following.stop()  // Story 1, 2 and 3, each on a connection of its own
        }
        // end snippet
    }
}
