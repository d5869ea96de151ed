import Foundation
import LoadingKit
import LoadingKitTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Mutations of one scope run one after another; a load of a value a mutation changes
/// waits for it, and the answer to a load sent before it ended is not stored.
@MainActor
@Suite("Mutation order", .timeLimit(.minutes(1)))
struct MutationOrderTests {
    let mock = MockTransport()
    let recorder = EventRecorder()
    let posts = Resource<[Post]>(url: Post.baseURL.appending(path: "posts"))

    private var webservice: Webservice {
        Webservice(
            transport: mock,
            configuration: .init(monitor: recorder, mutationWait: nil)
        )
    }

    private func waitForWaits(_ count: Int) async {
        await recorder.waitForEvents(count) { $0.kind == .waitingForMutation }
    }

    /// The titles the PATCH requests carried, in the order they were sent.
    private var sentTitles: [String] {
        mock.requests.filter { $0.httpMethod == "PATCH" }.compactMap { request in
            request.httpBody.flatMap { try? JSONDecoder().decode(Post.self, from: $0).title }
        }
    }

    @Test("mutations of one scope are sent one after another, in the order sent")
    func oneScopeInOrder() async throws {
        let webservice = webservice
        let gate = MockTransport.Gate()
        mock.respond(to: "/posts/3", method: .patch, with: .json(Post(3)), after: gate)
        mock.respond(to: "/posts/3", method: .patch, with: .json(Post(3)))
        mock.respond(to: "/posts/3", method: .patch, with: .json(Post(3)))
        let screen = DetailScreen(webservice: webservice)
        let tasks: [MutationTask<Post>] = try ["A", "B", "C"].map { title in
            screen.startSending(try Post.rename(id: 3, to: title).scoped("post-3"))
        }

        await gate.waitForArrivals()
        await waitForWaits(2)
        #expect(sentTitles == ["A"])
        gate.open()
        for task in tasks {
            await task.finish()
        }

        #expect(sentTitles == ["A", "B", "C"])
        #expect(tasks.allSatisfy { $0.value == Post(3) })
    }

    @Test("mutations of different scopes, or of none, run side by side")
    func scopesInParallel() async throws {
        let webservice = webservice
        let gate = MockTransport.Gate()
        for id in [3, 4, 5] {
            mock.respond(to: "/posts/\(id)", method: .patch, with: .json(Post(id)), after: gate)
        }
        async let three = webservice.send(Post.rename(id: 3, to: "A").scoped("post-3"))
        async let four = webservice.send(Post.rename(id: 4, to: "B").scoped("post-4"))
        async let five = webservice.send(Post.rename(id: 5, to: "C"))

        await gate.waitForArrivals(3)
        gate.open()

        #expect(try await [three, four, five].map(\.id) == [3, 4, 5])
        #expect(!recorder.events.contains { $0.kind == .waitingForMutation })
    }

    @Test("a mutation cancelled while it waits its turn is never sent, and the next still waits")
    func cancelledWhileWaiting() async throws {
        let webservice = webservice
        let gate = MockTransport.Gate()
        mock.respond(to: "/posts/3", method: .patch, with: .json(Post(3)), after: gate)
        mock.respond(to: "/posts/3", method: .patch, with: .json(Post(3)))
        let first = Task { try await webservice.send(Post.rename(id: 3, to: "A").scoped("post-3")) }
        await gate.waitForArrivals()
        let second = Task {
            try await webservice.send(Post.rename(id: 3, to: "B").scoped("post-3"))
        }
        await waitForWaits(1)
        let third = Task { try await webservice.send(Post.rename(id: 3, to: "C").scoped("post-3")) }
        await waitForWaits(2)

        second.cancel()
        await #expect(throws: WebserviceError.cancelled) {
            try await second.valuePropagatingCancellation
        }
        #expect(sentTitles == ["A"])
        gate.open()
        _ = try await (first.value, third.value)

        #expect(sentTitles == ["A", "C"])
    }

    @Test("a load of a value a mutation changes, started during it, is sent after it ends")
    func loadWaitsForMutation() async throws {
        let webservice = webservice
        mock.respond(to: "/posts", with: .json(Post.list([1])))
        let screen = PostsScreen(webservice: webservice)
        await screen.load(resource: posts)
        let gate = MockTransport.Gate()
        mock.respond(to: "/posts", method: .post, with: .status(500), after: gate)
        mock.respond(to: "/posts", with: .json(Post.list([3, 1])))
        let mutation = try Mutation(
            Resource<Post>(url: Post.baseURL.appending(path: "posts"), body: Post(2))
        )
        .optimistically(updating: posts) { $0.insert(Post(2), at: 0) }

        let saving: MutationTask<Post> = screen.startSending(mutation)
        await gate.waitForArrivals()
        let reload = Task { await screen.load(resource: posts, policy: .force) }
        await waitForWaits(1)
        #expect(mock.requestCount(for: "/posts") == 1)
        #expect(screen.ids == [2, 1])
        gate.open()
        await saving.finish()
        await reload.valuePropagatingCancellation

        #expect(mock.requests.map { $0.httpMethod ?? "" } == ["GET", "POST", "GET"])
        #expect(screen.ids == [3, 1])
    }

    @Test("the answer to a load sent before a mutation ended is not stored; the load asks again")
    func earlierAnswerIgnored() async throws {
        let webservice = webservice
        mock.respond(to: "/posts/3", with: .json(Post(id: 3, title: "Liked 0")))
        let screen = DetailScreen(webservice: webservice)
        await screen.load(resource: Post.resource(id: 3))
        let old = MockTransport.Gate()
        mock.respond(to: "/posts/3", with: .json(Post(id: 3, title: "Liked 0")), after: old)
        mock.respond(to: "/posts/3", with: .json(Post(id: 3, title: "Liked 1")))
        mock.respond(to: "/posts/3/like", method: .post, with: .json(Post(id: 3, title: "Liked 1")))
        let like = Mutation(
            Resource<Post>(url: Post.baseURL.appending(path: "posts/3/like"), method: .post)
        )
        .optimistically(updating: Post.resource(id: 3)) { $0 = Post(id: 3, title: "Liked 1") }

        let refresh = Task { await screen.load(resource: Post.resource(id: 3), policy: .force) }
        await old.waitForArrivals()
        _ = try await screen.send(like)
        old.open()
        await refresh.valuePropagatingCancellation

        #expect(screen.titles.last == "Liked 1")
        #expect(
            webservice.storedValue(for: Post.resource(id: 3))?.value
                == Post(id: 3, title: "Liked 1")
        )
        #expect(recorder.events.contains { $0.kind == .overtakenByMutation })
        #expect(mock.requestCount(for: "/posts/3") == 3)
    }

    @Test(
        "an answer that arrives after a mutation ended, to a load nothing was stored for, is refused"
    )
    func earlierAnswerRefusedWithNothingStored() async throws {
        let webservice = webservice
        let old = MockTransport.Gate()
        mock.respond(to: "/posts/3", with: .json(Post(id: 3, title: "Before")), after: old)
        mock.respond(to: "/posts/3", with: .json(Post(id: 3, title: "After")))
        mock.respond(to: "/posts/3", method: .patch, with: .json(Post(id: 3, title: "After")))
        let screen = DetailScreen(webservice: webservice)
        let loading = Task { await screen.load(resource: Post.resource(id: 3)) }
        await old.waitForArrivals()

        _ = try await webservice.send(
            Post.rename(id: 3, to: "After").invalidating(.resource(Post.resource(id: 3)))
        )
        old.open()
        await loading.valuePropagatingCancellation

        #expect(screen.titles == ["After"])
        #expect(recorder.events.contains { $0.kind == .overtakenByMutation })
    }

    @Test("two mutations of one value under way together: the server's value is loaded after both")
    func overlappingAnswersReload() async throws {
        let webservice = webservice
        mock.respond(to: "/posts/3", with: .json(Post(3)))
        let screen = DetailScreen(webservice: webservice)
        await screen.load(resource: Post.resource(id: 3))
        let gates = [MockTransport.Gate(), MockTransport.Gate()]
        mock.respond(
            to: "/posts/3",
            method: .patch,
            with: .json(Post(id: 3, title: "A")),
            after: gates[0]
        )
        mock.respond(
            to: "/posts/3",
            method: .patch,
            with: .json(Post(id: 3, title: "B")),
            after: gates[1]
        )
        mock.respond(to: "/posts/3", with: .json(Post(id: 3, title: "B")))
        let first = Task {
            try await webservice.send(
                Post.rename(id: 3, to: "A").storingAnswer(as: Post.resource(id: 3))
            )
        }
        await gates[0].waitForArrivals()
        let second = Task {
            try await webservice.send(
                Post.rename(id: 3, to: "B").storingAnswer(as: Post.resource(id: 3))
            )
        }
        await gates[1].waitForArrivals()

        // The server took A, then B; their answers are settled in the other order.
        gates[1].open()
        _ = try await second.valuePropagatingCancellation
        gates[0].open()
        _ = try await first.valuePropagatingCancellation
        for await state in screen.states where state.content?.title == "B" && !state.isLoading {
            break
        }

        #expect(mock.requestCount(for: "/posts/3") == 2)
        #expect(webservice.storedValue(for: Post.resource(id: 3))?.value.title == "B")
    }

    @Test("a kept optimistic change is never confirmed by a 304: the next load is unconditional")
    func keptChangeIsNotConfirmedByNotModified() async throws {
        let webservice = webservice
        mock.respond(
            to: "/posts/3",
            with: .json(Post(id: 3, title: "Liked 0"), headers: ["ETag": "\"v1\""])
        )
        let screen = DetailScreen(webservice: webservice)
        await screen.load(resource: Post.resource(id: 3))
        mock.respond(to: "/posts/3/like", method: .post, with: .json(Post(3)))
        mock.respond(to: "/posts/3", with: .json(Post(id: 3, title: "Liked 1")))
        let like = Mutation(
            Resource<Post>(url: Post.baseURL.appending(path: "posts/3/like"), method: .post)
        )
        .optimistically(updating: Post.resource(id: 3)) { $0 = Post(id: 3, title: "Liked 2") }

        _ = try await screen.send(like)
        for await state in screen.states where state.content?.title == "Liked 1" { break }

        #expect(mock.requests.last?.value(forHTTPHeaderField: "If-None-Match") == nil)
    }

    /// Two unscoped mutations of one post, each sent once the other's request is held:
    /// the first by `gates[0]`, the second by `gates[1]`. Mutations outside a scope run
    /// side by side, so their requests may reach the transport in either order; each
    /// is sent only once the one before it has arrived, so each takes its own gate.
    private func twoHeldRenames(
        of screen: DetailScreen,
        gates: [MockTransport.Gate]
    ) async throws -> [MutationTask<Post>] {
        var mutations: [MutationTask<Post>] = []
        for (gate, title) in zip(gates, ["1", "2"]) {
            mock.respond(to: "/posts/3", method: .patch, with: .status(500), after: gate)
            let rename = try Post.rename(id: 3, to: title)
            mutations.append(
                screen.startSending(
                    rename.optimistically(updating: Post.resource(id: 3)) {
                        $0 = Post(id: 3, title: $0.title + "+" + title)
                    }
                )
            )
            await gate.waitForArrivals()
        }
        return mutations
    }

    @Test(
        "rolling back after several mutations returns to the value before them",
        arguments: [false, true]
    )
    func rollbackOfSeveral(laterFailsFirst: Bool) async throws {
        let webservice = webservice
        mock.respond(to: "/posts/3", with: .json(Post(id: 3, title: "0")))
        let screen = DetailScreen(webservice: webservice)
        await screen.load(resource: Post.resource(id: 3))
        let gates = [MockTransport.Gate(), MockTransport.Gate()]
        let mutations = try await twoHeldRenames(of: screen, gates: gates)
        #expect(screen.titles.last == "0+1+2")
        // The order of the run that hung: the later mutation's request answered first.
        let order = laterFailsFirst ? [1, 0] : [0, 1]

        gates[order[0]].open()
        await mutations[order[0]].finish()
        let kept = laterFailsFirst ? "0+1" : "0+2"
        #expect(webservice.storedValue(for: Post.resource(id: 3))?.value.title == kept)
        #expect(mutations[order[1]].isInFlight)
        gates[order[1]].open()
        await mutations[order[1]].finish()

        #expect(webservice.storedValue(for: Post.resource(id: 3))?.value.title == "0")
        for await state in screen.states where state.content?.title == "0" { break }
    }
}
