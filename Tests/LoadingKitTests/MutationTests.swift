import Foundation
import LoadingKit
import LoadingKitTesting
import Observation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Mutations: their optimistic changes show at once on every screen showing the values
/// they change and are taken back exactly when they fail; they invalidate what they
/// name when they succeed; they are sent once unless told otherwise.
@MainActor
@Suite("Mutations", .timeLimit(.minutes(1)))
struct MutationTests {
    let mock = MockTransport()
    let clock = ManualClock()
    let posts = Resource<[Post]>(url: URL(string: "https://api.example.com/posts")!)

    private func webservice(retry: RetryPolicy = .none) -> Webservice {
        Webservice(transport: mock, configuration: .init(retry: retry, clock: clock))
    }

    private func create(_ id: Int) throws -> Resource<Post> {
        try Resource(url: URL(string: "https://api.example.com/posts")!, body: Post(id))
    }

    /// Two screens showing `[1]`, loaded through `webservice`.
    private func twoScreens(on webservice: Webservice) async -> (PostsScreen, PostsScreen) {
        mock.respond(to: "/posts", with: .json(Post.list([1])))
        let first = PostsScreen(webservice: webservice, clock: clock)
        let second = PostsScreen(webservice: webservice, clock: clock)
        await first.load(resource: posts)
        await second.load(resource: posts)
        return (first, second)
    }

    /// Returns once `screen` shows `ids`.
    private func waitUntil(_ screen: PostsScreen, shows ids: [Int]) async {
        for await state in screen.states where state.content?.map(\.id) == ids {
            return
        }
    }

    @Test("an optimistic change shows at once on every screen; success keeps it and reloads")
    func optimisticChangeThenSuccess() async throws {
        let webservice = webservice()
        let (first, second) = await twoScreens(on: webservice)
        let gate = MockTransport.Gate()
        mock.respond(to: "/posts", method: .post, with: .json(Post(2)), after: gate)
        mock.respond(to: "/posts", with: .json(Post.list([2, 1])))
        let mutation = try Mutation(create(2)).optimistically(updating: posts) {
            $0.insert(Post(2), at: 0)
        }

        let saving: MutationTask<Post> = first.startSending(mutation)
        #expect(saving.isInFlight)
        await gate.waitForArrivals()
        await waitUntil(second, shows: [2, 1])
        #expect(first.ids == [2, 1])
        #expect(webservice.storedValue(for: posts)?.hasPendingChanges == true)
        let reloaded = first.states
        gate.open()
        await saving.finish()
        #expect(saving.value == Post(2))
        #expect(!saving.isInFlight && saving.error == nil)
        // The invalidation's reload: in flight, then over.
        var reloading = false
        for await state in reloaded {
            reloading = reloading || state.activity == .reloading
            if reloading, state.activity == .idle { break }
        }
        #expect(mock.requestCount(for: "/posts") == 2)
        // The optimistic value once; the server's own is the same, so nothing more.
        #expect(first.configured == [[1], [2, 1]])
        #expect(second.configured == [[1], [2, 1]])
        #expect(webservice.storedValue(for: posts)?.hasPendingChanges == false)
    }

    @Test("a failed mutation takes its change back exactly, on every screen")
    func failureRollsBack() async throws {
        let webservice = webservice()
        let (first, second) = await twoScreens(on: webservice)
        let gate = MockTransport.Gate()
        mock.respond(to: "/posts", method: .post, with: .status(500), after: gate)
        let mutation = try Mutation(create(2)).optimistically(updating: posts) {
            $0.insert(Post(2), at: 0)
        }

        let saving: MutationTask<Post> = first.startSending(mutation)
        await gate.waitForArrivals()
        await waitUntil(second, shows: [2, 1])
        gate.open()
        await saving.finish()
        await waitUntil(second, shows: [1])
        #expect(first.ids == [1])
        #expect(saving.error != nil && !saving.isInFlight)
        #expect(first.configured == [[1], [2, 1], [1]])
        #expect(second.configured == [[1], [2, 1], [1]])
        #expect(first.failures.isEmpty)
        #expect(mock.requestCount(for: "/posts") == 1)
    }

    @Test("a failure takes back only its change: a value revalidated meanwhile stays")
    func rollbackKeepsConcurrentRevalidation() async throws {
        let webservice = webservice()
        let (first, second) = await twoScreens(on: webservice)
        let reloadGate = MockTransport.Gate()
        mock.respond(to: "/posts", with: .json(Post.list([3, 1])), after: reloadGate)
        let gate = MockTransport.Gate()
        mock.respond(to: "/posts", method: .post, with: .status(500), after: gate)
        let mutation = try Mutation(create(2)).optimistically(updating: posts) {
            $0.insert(Post(2), at: 0)
        }
        // The revalidation is sent before the mutation: it does not wait for it.
        let reload = Task { await first.load(resource: posts, policy: .force) }
        await reloadGate.waitForArrivals()

        let saving = Task { try await webservice.send(mutation) }
        await gate.waitForArrivals()
        await waitUntil(second, shows: [2, 1])
        reloadGate.open()
        await reload.valuePropagatingCancellation
        #expect(first.ids == [2, 3, 1])
        await waitUntil(second, shows: [2, 3, 1])
        gate.open()
        await #expect(throws: WebserviceError.self) {
            try await saving.valuePropagatingCancellation
        }
        await waitUntil(second, shows: [3, 1])
        #expect(first.ids == [3, 1])
    }

    @Test("a mutation is sent once: not shared with an identical one, not retried")
    func notCoalescedNorRetried() async throws {
        let webservice = webservice(retry: RetryPolicy(maximumAttempts: 3, initialDelay: .zero))
        let gate = MockTransport.Gate()
        mock.respond(to: "/posts", method: .post, with: .json(Post(2)), after: gate)
        mock.respond(to: "/posts", method: .post, with: .json(Post(2)), after: gate)
        let mutation = try Mutation(create(2))
        async let one = webservice.send(mutation)
        async let two = webservice.send(mutation)
        await gate.waitForArrivals(2)
        gate.open()
        _ = try await (one, two)
        #expect(mock.requestCount(for: "/posts", method: .post) == 2)

        let put = try Resource<Post>(
            url: URL(string: "https://api.example.com/posts/2")!,
            method: .put,
            body: Post(2)
        )
        mock.respond(to: "/posts/2", method: .put, with: .status(503))
        await #expect(throws: WebserviceError.self) { try await webservice.send(Mutation(put)) }
        #expect(mock.requestCount(for: "/posts/2", method: .put) == 1)
    }

    @Test("a mutation told to coalesce shares the request of an identical one in flight")
    func coalescedWhenAsked() async throws {
        let webservice = webservice()
        let gate = MockTransport.Gate()
        mock.respond(to: "/posts", method: .post, with: .json(Post(2)), after: gate)
        let mutation = try Mutation(create(2)).coalescing()
        async let one = webservice.send(mutation)
        await gate.waitForArrivals()
        async let two = webservice.send(mutation)
        while webservice.sharedCallers < 2, !Task.isCancelled {
            await Task.yield()
        }
        gate.open()
        let (first, second) = try await (one, two)
        #expect(first == Post(2))
        #expect(second == Post(2))
        #expect(mock.requestCount(for: "/posts", method: .post) == 1)
    }

    @Test("PATCH and DELETE are mutations too: sent once, invalidating on success")
    func patchAndDelete() async throws {
        let webservice = webservice(retry: RetryPolicy(maximumAttempts: 3, initialDelay: .zero))
        let (first, _) = await twoScreens(on: webservice)
        let url = URL(string: "https://api.example.com/posts/1")!
        let patch = try Resource<Post>(url: url, method: .patch, body: Post(1))
        mock.respond(to: "/posts/1", method: .patch, with: .status(503))
        await #expect(throws: WebserviceError.self) {
            try await webservice.send(Mutation(patch).invalidating(.resource(posts)))
        }
        #expect(mock.requestCount(for: "/posts/1", method: .patch) == 1)
        #expect(mock.requestCount(for: "/posts") == 1)

        var request = URLRequest(url: url)
        request.httpMethod = HTTPMethod.delete.rawValue
        let delete = Resource<Bool>(request: request) { _, _ in true }
        mock.respond(to: "/posts/1", method: .delete, with: .status(204))
        mock.respond(to: "/posts", with: .json(Post.list([])))
        let states = first.states
        _ = try await webservice.send(Mutation(delete).invalidating(.resource(posts)))
        for await state in states where state.content?.isEmpty == true { break }
        #expect(mock.requestCount(for: "/posts/1", method: .delete) == 1)
        #expect(mock.requestCount(for: "/posts") == 2)
    }

    @Test("a mutation told to retry is sent again")
    func retriedWhenAsked() async throws {
        let webservice = webservice()
        mock.respond(to: "/posts", method: .post, with: .status(503))
        mock.respond(to: "/posts", method: .post, with: .json(Post(2)))
        let policy = RetryPolicy(
            maximumAttempts: 2,
            initialDelay: .zero,
            retriesNonIdempotentRequests: true
        )
        let saved = try await webservice.send(Mutation(create(2)).retrying(policy))
        #expect(saved == Post(2))
        #expect(mock.requestCount(for: "/posts", method: .post) == 2)
    }

    @Test("success invalidates what the mutation names: live screens reload, once")
    func successInvalidates() async throws {
        let webservice = webservice()
        let (first, second) = await twoScreens(on: webservice)
        mock.respond(to: "/posts", method: .post, with: .json(Post(2)))
        mock.respond(to: "/posts", with: .json(Post.list([2, 1])))
        let states = second.states
        _ = try await webservice.send(Mutation(create(2)).invalidating(.resource(posts)))
        for await state in states where state.content?.map(\.id) == [2, 1] { break }
        #expect(first.ids == [2, 1])
        #expect(mock.requestCount(for: "/posts") == 2)
    }

    @Test("a mutation's state is observable")
    func stateIsObservable() async throws {
        let webservice = webservice()
        let screen = PostsScreen(webservice: webservice, clock: clock)
        mock.respond(to: "/posts", method: .post, with: .status(422))
        let saving: MutationTask<Post> = screen.startSending(try Mutation(create(2)))
        await confirmation("isInFlight changes") { changed in
            withObservationTracking {
                _ = saving.isInFlight
            } onChange: {
                changed()
            }
            await saving.finish()
        }
        #expect(saving.error?.description.contains("422") == true)
    }

    @Test("a started mutation's outcome says sent, failed or cancelled, with nothing to catch")
    func outcome() async throws {
        let webservice = webservice()
        let screen = PostsScreen(webservice: webservice, clock: clock)
        mock.respond(to: "/posts", method: .post, with: .json(Post(2)))
        mock.respond(to: "/posts", method: .post, with: .status(422))
        let gate = MockTransport.Gate()
        mock.respond(to: "/posts", method: .post, with: .json(Post(4)), after: gate)

        let sent: MutationTask<Post> = screen.startSending(try Mutation(create(2)))
        #expect(sent.outcome == nil)
        await sent.finish()
        guard case .sent(let post) = sent.outcome else {
            Issue.record("expected sent, got \(String(describing: sent.outcome))")
            return
        }
        #expect(post.id == 2)

        let refused: MutationTask<Post> = screen.startSending(try Mutation(create(3)))
        await refused.finish()
        guard case .failed(let error) = refused.outcome else {
            Issue.record("expected failed, got \(String(describing: refused.outcome))")
            return
        }
        #expect(error == refused.error)

        let cancelled: MutationTask<Post> = screen.startSending(try Mutation(create(4)))
        await gate.waitForArrivals()
        cancelled.cancel()
        await cancelled.finish()
        guard case .cancelled = cancelled.outcome else {
            Issue.record("expected cancelled, got \(String(describing: cancelled.outcome))")
            return
        }
    }
}
