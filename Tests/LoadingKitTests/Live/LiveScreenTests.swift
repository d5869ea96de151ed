import Foundation
import LoadingKit
import LoadingKitTesting
import Testing

@MainActor
@Suite("Screens following live resources", .timeLimit(.minutes(1)))
struct LiveScreenTests {
    let mock = MockTransport()
    let posts = Resource<[Post]>(url: Post.baseURL.appending(path: "posts"))
    let liveURL = Post.baseURL.appending(path: "live")

    /// Raw events, reconnecting after a minute: no test waits for it unless it says.
    var messages: LiveResource<ServerSentEvent> {
        LiveResource(url: liveURL).reconnecting(LiveReconnection(delay: .seconds(60), jitter: 0))
    }

    /// Post events that insert each post at the head of the list of posts.
    var newPosts: LiveResource<Post> {
        let posts = posts
        return LiveResource<Post>(url: liveURL)
            .reconnecting(LiveReconnection(delay: .seconds(60), jitter: 0))
            .updatingStore { post in [.edit(posts) { $0.insert(post, at: 0) }] }
    }

    @Test("pushed events change the store, and every screen showing the value updates")
    func storeUpdatesScreens() async {
        let webservice = Webservice(transport: mock)
        mock.respond(to: "/posts", with: .json(Post.list([1])))
        let body = StreamedBody()
        mock.respond(to: "/live", with: .eventStream(body))
        let list = PostsScreen(webservice: webservice)
        let other = PostsScreen(webservice: webservice)
        await list.load(resource: posts)
        await other.load(resource: posts)
        list.follow(newPosts)
        await list.waitForState { $0.stream == .connected }
        body.send(#"data: {"id":2,"title":"Post 2"}"# + "\n\n")
        await other.waitForState { $0.content?.map(\.id) == [2, 1] }
        #expect(list.ids == [2, 1])
        #expect(webservice.storedValue(for: posts)?.value.map(\.id) == [2, 1])
        #expect(other.loadingState.stream == nil)
    }

    @Test(
        "a value accumulated from a stream: the loading placeholder until the first event, then content as it grows"
    )
    func accumulates() async {
        let body = StreamedBody()
        mock.respond(to: "/live", with: .eventStream(body))
        let screen = MessagesScreen(webservice: Webservice(transport: mock))
        screen.follow(messages)
        #expect(screen.loadingState.placeholder == .loading)
        await screen.waitForState { $0.stream == .connected }
        #expect(screen.loadingState.placeholder == .loading)
        body.send("data: hello\n\n")
        await screen.waitForState { $0.content == ["hello"] }
        #expect(screen.loadingState.placeholder == .content)
        body.send("data: world\n\n")
        await screen.waitForState { $0.content == ["hello", "world"] }
        #expect(screen.configured == [["hello"], ["hello", "world"]])
    }

    @Test("an error in the stream keeps the content shown, and the state says why it stopped")
    func errorKeepsContent() async {
        let body = StreamedBody()
        mock.respond(to: "/live", with: .eventStream(body))
        let screen = MessagesScreen(webservice: Webservice(transport: mock))
        screen.follow(
            LiveResource<ServerSentEvent>(
                url: liveURL,
                framing: .serverSentEvents.maximumLineLength(32)
            )
        )
        body.send("data: kept\n\n")
        await screen.waitForState { $0.content == ["kept"] }
        body.send("data: " + String(repeating: "x", count: 64) + "\n\n")
        await screen.waitForState { $0.stream?.isStopped == true }
        #expect(screen.messages == ["kept"])
        #expect(screen.loadingState.placeholder == .content)
        #expect(screen.loadingState.stream == .stopped(.failed(.lineTooLong(limit: 32))))
        #expect(screen.loadingState.error == .failed("a line longer than the limit of 32 bytes"))
    }

    @Test("the state says when the stream reconnects, and after which event; the content stays")
    func reconnectingState() async {
        let first = StreamedBody()
        let second = StreamedBody()
        mock.respond(to: "/live", with: .eventStream(first))
        mock.respond(to: "/live", with: .eventStream(second))
        let screen = MessagesScreen(webservice: Webservice(transport: mock))
        screen.follow(
            LiveResource(url: liveURL).reconnecting(
                LiveReconnection(delay: .milliseconds(10), jitter: 0)
            )
        )
        first.send("id: 1\ndata: one\n\n")
        await screen.waitForState { $0.content == ["one"] }
        first.drop()
        await screen.waitForState { $0.stream?.isReconnecting == true }
        #expect(screen.messages == ["one"])
        second.send("id: 2\ndata: two\n\n")
        await screen.waitForState { $0.content == ["one", "two"] }
        #expect(mock.requests.last?.value(forHTTPHeaderField: "Last-Event-ID") == "1")
    }

    @Test("disappearing stops following; appearing follows again after the last event shown")
    func disappearAndAppear() async {
        let first = StreamedBody()
        let second = StreamedBody()
        mock.respond(to: "/live", with: .eventStream(first))
        mock.respond(to: "/live", with: .eventStream(second))
        let webservice = Webservice(transport: mock)
        let screen = MessagesScreen(webservice: webservice)
        screen.follow(messages)
        first.send("id: 5\ndata: five\n\n")
        await screen.waitForState { $0.content == ["five"] }
        screen.loadingDidDisappear()
        await first.waitUntilClientLeft()
        #expect(webservice.liveConnectionCount == 0)
        screen.loadingDidAppear()
        await second.waitUntilOpened()
        #expect(mock.requests.last?.value(forHTTPHeaderField: "Last-Event-ID") == "5")
        second.send("id: 6\ndata: six\n\n")
        await screen.waitForState { $0.content == ["five", "six"] }
    }

    @Test("a released screen stops following: the connection closes")
    func releaseStops() async {
        let body = StreamedBody()
        mock.respond(to: "/live", with: .eventStream(body))
        let webservice = Webservice(transport: mock)
        var screen: MessagesScreen? = MessagesScreen(webservice: webservice)
        screen?.follow(messages)
        await body.waitUntilOpened()
        screen = nil
        await body.waitUntilClientLeft()
        #expect(webservice.liveConnectionCount == 0)
    }

    @Test("stopFollowing keeps the content and clears the stream's state")
    func stopFollowing() async {
        let body = StreamedBody()
        mock.respond(to: "/live", with: .eventStream(body))
        let screen = MessagesScreen(webservice: Webservice(transport: mock))
        screen.follow(messages)
        body.send("data: stays\n\n")
        await screen.waitForState { $0.content == ["stays"] }
        screen.stopFollowing()
        #expect(screen.loadingState.stream == nil)
        #expect(screen.messages == ["stays"])
        await body.waitUntilClientLeft()
    }

    @Test(
        "1,000 screens following one live resource share one connection, and each event reaches all in one main-actor turn"
    )
    func thousandScreens() async {
        let body = StreamedBody()
        mock.respond(to: "/live", with: .eventStream(body))
        let webservice = Webservice(transport: mock)
        let screens = (0..<1000).map { _ in MessagesScreen(webservice: webservice) }
        for screen in screens {
            screen.follow(messages)
        }
        await screens[0].waitForState { $0.stream == .connected }
        #expect(webservice.liveConnectionCount == 1)
        #expect(mock.requestCount(for: "/live") == 1)
        body.send("data: everyone\n\n")
        await screens[0].waitForState { $0.content == ["everyone"] }
        // Handed out in the turn that showed it on the first: no screen is behind.
        #expect(screens.allSatisfy { $0.messages == ["everyone"] })
        for screen in screens {
            screen.stopFollowing()
        }
        await body.waitUntilClientLeft()
        #expect(webservice.liveConnectionCount == 0)
    }

    @Test(
        "following again from the start: reset shows the placeholder; replaceAtEnd keeps the old value until the stream ends"
    )
    func restartModes() async {
        let webservice = Webservice(transport: mock)
        let bodies = (0..<3).map { _ in StreamedBody() }
        for body in bodies {
            mock.respond(to: "/live", with: .eventStream(body))
        }
        let screen = MessagesScreen(webservice: webservice)
        screen.follow(messages)
        bodies[0].send("data: old\n\n")
        await screen.waitForState { $0.content == ["old"] }

        screen.follow(messages, restart: .replaceAtEnd)
        bodies[1].send("data: new\n\n")
        await bodies[1].waitUntilOpened()
        bodies[1].send("data: newer\n\n")
        #expect(screen.messages == ["old"])
        bodies[1].end()
        await screen.waitForState { $0.content == ["new", "newer"] }

        screen.follow(messages, restart: .reset)
        #expect(screen.messages == nil)
        #expect(screen.loadingState.placeholder == .loading)
        bodies[2].send("data: fresh\n\n")
        await screen.waitForState { $0.content == ["fresh"] }
    }

    @Test("a stream the server answers 204 shows the initial value")
    func noContentShowsInitial() async {
        mock.respond(to: "/live", with: .status(204))
        let screen = MessagesScreen(webservice: Webservice(transport: mock))
        screen.follow(messages)
        await screen.waitForState { $0.stream == .stopped(.noContent) }
        #expect(screen.messages == [])
    }

    @Test("an optimistic change in flight stays laid on top of a pushed value")
    func optimisticOnTop() async throws {
        let webservice = Webservice(transport: mock)
        mock.respond(to: "/posts", with: .json(Post.list([1])))
        let body = StreamedBody()
        mock.respond(to: "/live", with: .eventStream(body))
        let list = PostsScreen(webservice: webservice)
        await list.load(resource: posts)
        let gate = MockTransport.Gate()
        mock.respond(to: "/posts", method: .post, with: .json(Post(9)), after: gate)
        let mutation = try Mutation(
            Resource<Post>(url: Post.baseURL.appending(path: "posts"), body: Post(9))
        )
        .optimistically(updating: posts) { $0.insert(Post(9), at: 0) }
        let saving: MutationTask<Post> = list.startSending(mutation)
        #expect(list.ids == [9, 1])
        let replacing = posts
        list.follow(
            LiveResource<[Post]>(url: liveURL)
                .updatingStore { pushed in [.replace(replacing, with: pushed)] }
        )
        body.send(#"data: [{"id":2,"title":"Post 2"},{"id":1,"title":"Post 1"}]"# + "\n\n")
        await list.waitForState { $0.content?.map(\.id) == [9, 2, 1] }
        gate.open()
        await saving.finish()
    }
}

extension LiveConnectionState {
    /// Whether the stream stopped.
    var isStopped: Bool {
        if case .stopped = self { return true }
        return false
    }

    /// Whether the stream is reconnecting.
    var isReconnecting: Bool {
        if case .reconnecting = self { return true }
        return false
    }
}
