import Foundation
import LoadingKitNetworking
import LoadingKitTesting
import Testing

@testable import LoadingKit

/// Screens on one webservice share one value per resource: a screen opening a stored
/// resource shows it at once, a value one screen loads reaches the others, and an
/// invalidation reloads exactly the live screens showing what it covers.
@MainActor
@Suite("Screens sharing stored values", .timeLimit(.minutes(1)))
struct SharedValuesTests {
    let mock = MockTransport()
    let clock = ManualClock()

    private func resource(_ path: String) -> Resource<[Post]> {
        Resource(url: URL(string: "https://api.example.com\(path)")!)
    }

    private func webservice(_ storage: StorageLimits = StorageLimits()) -> Webservice {
        Webservice(transport: mock, configuration: .init(storage: storage, clock: clock))
    }

    private func screen(on webservice: Webservice) -> PostsScreen {
        PostsScreen(webservice: webservice, clock: clock)
    }

    /// A screen that loaded `/posts` (post 1) on a webservice of its own.
    private func screenShowingPosts() async -> (Webservice, PostsScreen, ResourceIdentity) {
        mock.respond(to: "/posts", with: .json(Post.list([1])))
        let webservice = webservice()
        let screen = screen(on: webservice)
        await screen.load(resource: resource("/posts"))
        return (webservice, screen, resource("/posts").identity)
    }

    @Test("a second screen opening a fresh stored resource shows it at once and sends nothing")
    func freshStoredValueIsShownWithoutRequest() async {
        mock.respond(to: "/posts", with: .json(Post.list([1, 2])))
        let webservice = webservice()
        let list = screen(on: webservice)
        await list.load(resource: resource("/posts"))
        clock.advance(by: .seconds(5))

        let other = screen(on: webservice)
        other.startLoading(resource: resource("/posts"))
        #expect(other.loadingState.placeholder == .content)
        #expect(other.loadingState.activity == .idle)
        #expect(other.ids == [1, 2])
        #expect(other.loadingState.loadedAt == list.loadingState.loadedAt)
        #expect(other.stateChanges == 1)
        #expect(mock.requests.count == 1)
    }

    @Test("a screen opened while another applies a new value of its resource shows that value")
    func screenOpenedDuringApplyShowsNewValue() async {
        mock.respond(to: "/posts", with: .json(Post.list([1])))
        mock.respond(to: "/posts", with: .json(Post.list([1, 2])))
        let webservice = webservice()
        let list = screen(on: webservice)
        await list.load(resource: resource("/posts"))
        let opened = screen(on: webservice)
        let posts = resource("/posts")
        list.onConfigure = { [weak list] in
            guard list?.configured.count == 2 else { return }
            // In the list's configure: the new value is stored, not yet shown elsewhere.
            opened.startLoading(resource: posts)
        }

        await list.load(resource: posts, policy: .force)
        #expect(opened.ids == [1, 2])
        #expect(opened.loadingState.activity == .idle)
        #expect(mock.requests.count == 2)
    }

    @Test("a screen going through many resources leaves no registration behind for each")
    func registrationsOfLeftResourcesAreSwept() async {
        let webservice = webservice()
        let screen = screen(on: webservice)
        for index in 0..<300 {
            mock.respond(to: "/posts/\(index)", with: .json(Post.list([index])))
            await screen.load(resource: resource("/posts/\(index)"))
        }
        #expect(screen.ids == [299])
        #expect(mock.requests.count == 300)
        // One live registration; what the screen left is swept as registrations grow.
        #expect(SharedValues.of(webservice).registrationCount < 100)
    }

    @Test(
        "screens opened and closed on one resource, or a screen going back and forth, leave nothing"
    )
    func registrationsOfOneResourceAreSwept() async {
        let (webservice, list, _) = await screenShowingPosts()
        mock.respond(to: "/other", with: .json(Post.list([9])))
        for _ in 0..<300 {
            let detail = screen(on: webservice)
            await detail.load(resource: resource("/posts"))
            #expect(detail.ids == [1])
        }
        for _ in 0..<300 {
            await list.load(resource: resource("/other"))
            await list.load(resource: resource("/posts"))
        }
        #expect(list.ids == [1])
        #expect(mock.requests.count == 2)
        // The list's own registration, and at most the one a closed screen left.
        #expect(SharedValues.of(webservice).registrationCount <= 3)
    }

    @Test("a stored value keeps its response's status, Link relations and total count")
    func storedValueKeepsResponseSummary() async {
        mock.respond(
            to: "/posts",
            with: .json(Post.list([1]))
                .header("Link", "<https://api.example.com/posts?page=2>; rel=\"next\"")
                .header("X-Total-Count", "42")
        )
        let webservice = webservice()
        await screen(on: webservice).load(resource: resource("/posts"))
        let stored = webservice.storedValue(for: resource("/posts"))
        #expect(stored?.value.map(\.id) == [1])
        #expect(stored?.response.statusCode == 200)
        #expect(
            stored?.response.links.next?.absoluteString == "https://api.example.com/posts?page=2"
        )
        #expect(stored?.response.totalCount == 42)
    }

    @Test("the handle of a screen shown a fresh stored value finishes without leaving the actor")
    func skippedLoadFinishesInPlace() async {
        let (webservice, _, _) = await screenShowingPosts()
        var otherJobRan = false
        Task { @MainActor in otherJobRan = true }

        let other = screen(on: webservice)
        let task = other.startLoading(resource: resource("/posts"))
        await task.finish()
        // Any suspension would have let the job queued on the main actor run first.
        #expect(!otherJobRan)
        #expect(other.ids == [1])
        #expect(!task.isCancelled)
        task.cancel()
        #expect(task.isCancelled)
        #expect(task != LoadTask.finished)
    }

    @Test("a stale stored value is shown at once, then revalidated with one conditional request")
    func staleStoredValueIsRevalidated() async {
        mock.respond(
            to: "/posts",
            with: .json(Post.list([1])).header("ETag", "\"v1\"").header(
                "Cache-Control",
                "max-age=60"
            )
        )
        mock.respond(to: "/posts", with: .status(304))
        let webservice = webservice()
        await screen(on: webservice).load(resource: resource("/posts"))
        clock.advance(by: .seconds(61))

        let other = screen(on: webservice)
        let task = other.startLoading(resource: resource("/posts"))
        #expect(other.ids == [1])
        #expect(other.loadingState.activity == .reloading)
        await task.finish()
        #expect(mock.requests.count == 2)
        #expect(mock.requests.last?.value(forHTTPHeaderField: "If-None-Match") == "\"v1\"")
        #expect(other.configured == [[1]])
        #expect(other.loadingState.activity == .idle)
    }

    @Test("two screens opening one resource together send one request")
    func twoScreensOneRequest() async {
        let gate = MockTransport.Gate()
        mock.respond(to: "/posts", with: .json(Post.list([1])), after: gate)
        let webservice = webservice()
        let first = screen(on: webservice)
        let second = screen(on: webservice)
        let a = first.startLoading(resource: resource("/posts"))
        let b = second.startLoading(resource: resource("/posts"))
        await gate.waitForArrivals()
        gate.open()
        await a.finish()
        await b.finish()
        #expect(mock.requests.count == 1)
        #expect(first.configured == [[1]])
        #expect(second.configured == [[1]])
    }

    @Test("a value one screen loads reaches every screen showing it, once each, in that turn")
    func loadedValueReachesOtherScreens() async {
        mock.respond(to: "/posts", with: .json(Post.list([1])))
        mock.respond(to: "/posts", with: .json(Post.list([2, 1])))
        let webservice = webservice()
        let first = screen(on: webservice)
        let second = screen(on: webservice)
        let third = screen(on: webservice)
        await first.load(resource: resource("/posts"))
        await second.load(resource: resource("/posts"))
        await third.load(resource: resource("/posts"))

        await first.load(resource: resource("/posts"), policy: .force)
        // No suspension since the first screen applied it: the others have it too.
        #expect(second.configured == [[1], [2, 1]])
        #expect(third.configured == [[1], [2, 1]])
        #expect(first.configured == [[1], [2, 1]])
        #expect(mock.requests.count == 2)
    }

    @Test("a value loaded outside any screen reaches every screen showing it, once each")
    func valueLoadedElsewhereReachesScreens() async throws {
        mock.respond(to: "/posts", with: .json(Post.list([1])))
        mock.respond(to: "/posts", with: .json(Post.list([2, 1])))
        let webservice = webservice()
        let first = screen(on: webservice)
        let second = screen(on: webservice)
        await first.load(resource: resource("/posts"))
        await second.load(resource: resource("/posts"))
        let states = second.states

        _ = try await webservice.load(resource("/posts"))
        for await state in states where state.content?.map(\.id) == [2, 1] {
            break
        }
        #expect(first.configured == [[1], [2, 1]])
        #expect(second.configured == [[1], [2, 1]])
    }

    @Test("a screen whose load was cancelled before anything was shown is not shown a stored value")
    func cancelledLoadIsNotShownStoredValue() async throws {
        let gate = MockTransport.Gate()
        mock.respond(to: "/posts", with: .json(Post.list([1])), after: gate)
        let webservice = webservice()
        let screen = screen(on: webservice)
        let task = screen.startLoading(resource: resource("/posts"))
        await gate.waitForArrivals()
        // The load's task, queued on the main actor before this one, reaches its wait.
        await Task.yield()
        task.cancel()
        // The load stays current until its waiting task reports the cancellation, a
        // main-actor turn later: the window this test is about.
        while screen.loading.awaitedOperation != nil, !Task.isCancelled {
            await Task.yield()
        }
        try #require(screen.loading.currentOperation != nil)
        let store = webservice.store
        let identity = resource("/posts").identity
        _ = store.store(
            Post.list([7]),
            for: identity,
            sequence: store.nextSequence(),
            notifies: false
        ) {
            version in
            StoredEntry(
                value: Post.list([7]),
                validators: nil,
                cacheFields: [:],
                directives: CacheDirectives(),
                loadedAt: clock.now,
                response: ResponseSummary(statusCode: 200),
                version: version,
                sequence: 0,
                cost: 1
            )
        }
        SharedValues.of(webservice).propagate(identity, in: store)
        #expect(screen.configured.isEmpty)
        #expect(screen.loadingState.content == nil)
        gate.open()
        await task.finish()
        #expect(screen.loadingState.wasCancelled)
        #expect(screen.configured.isEmpty)
    }

    @Test("an answer applied after a newer value was stored shows the newer value")
    func answerOvertakenByStoredValue() async throws {
        let (webservice, screen, identity) = await screenShowingPosts()
        let store = webservice.store
        let answered = try #require(store.entry(for: identity))
        // A mutation's change, stored after the answer but before the screen applies it.
        store.apply(
            .changeLaid(StoredEntry.Edit(id: 1) { _ in Post.list([2]) }),
            to: identity,
            notifies: false
        )
        try screen.loading.applyShared(
            Fetched(entry: answered, value: Post.list([1]), isNotModified: true),
            of: identity,
            for: screen
        )
        #expect(screen.ids == [2])
        #expect(screen.loading.contentVersion == store.entry(for: identity)?.version)
    }

    @Test("a 304 confirming a later stored version than the one shown shows that version")
    func notModifiedConfirmingLaterVersion() async throws {
        let (webservice, screen, identity) = await screenShowingPosts()
        let store = webservice.store
        // A mutation's change is shown, then taken back before the screen hears of it.
        store.apply(
            .changeLaid(StoredEntry.Edit(id: 1) { _ in Post.list([2]) }),
            to: identity,
            notifies: false
        )
        SharedValues.of(webservice).propagate(identity, in: store)
        #expect(screen.ids == [2])
        let confirmed = try #require(
            store.apply(.changeEnded(id: 1, kept: false), to: identity, notifies: false)
        )
        try screen.loading.applyShared(
            Fetched(entry: confirmed, value: Post.list([1]), isNotModified: true),
            of: identity,
            for: screen
        )
        #expect(screen.ids == [1])
        #expect(screen.configured == [[1], [2], [1]])
    }

    @Test("a screen shows only the stored value of its own resource")
    func storedValueOfAnotherIdentityIsNotShown() async {
        mock.respond(to: "/posts", with: .json(Post.list([1])))
        mock.respond(to: "/posts", with: .json(Post.list([9])))
        let webservice = webservice()
        await screen(on: webservice).load(resource: resource("/posts"))
        let other = screen(on: webservice)
        let task = other.startLoading(
            resource: resource("/posts").header("Authorization", "Bearer other")
        )
        #expect(other.loadingState.content == nil)
        #expect(other.loadingState.placeholder == .loading)
        await task.finish()
        #expect(other.ids == [9])
        #expect(mock.requests.count == 2)
    }

    @Test("invalidation reloads exactly the live screens showing what it covers, once per resource")
    func invalidationReloadsLiveScreens() async {
        for path in ["/posts/1", "/posts/2", "/posts/3", "/users/1"] {
            mock.respond(to: path, with: .json(Post.list([1])))
        }
        mock.respond(to: "/posts/1", with: .json(Post.list([10])))
        mock.respond(to: "/posts/2", with: .json(Post.list([20])))
        let webservice = webservice()
        let first = screen(on: webservice)
        let second = screen(on: webservice)
        let other = screen(on: webservice)
        let user = screen(on: webservice)
        var released: PostsScreen? = screen(on: webservice)
        await first.load(resource: resource("/posts/1"))
        await second.load(resource: resource("/posts/1"))
        await other.load(resource: resource("/posts/2"))
        await user.load(resource: resource("/users/1"))
        await released?.load(resource: resource("/posts/3"))
        released = nil
        let firstStates = first.states
        let otherStates = other.states

        let covered = webservice.invalidate(.prefix(URL(string: "https://api.example.com/posts")!))
        #expect(covered == 3)
        for await state in firstStates where state.content?.map(\.id) == [10] { break }
        for await state in otherStates where state.content?.map(\.id) == [20] { break }
        #expect(second.ids == [10])
        #expect(user.ids == [1])
        #expect(mock.requestCount(for: "/posts/1") == 2)
        #expect(mock.requestCount(for: "/posts/2") == 2)
        #expect(mock.requestCount(for: "/posts/3") == 1)
        #expect(mock.requestCount(for: "/users/1") == 1)
        #expect(webservice.storedValue(for: resource("/posts/3"))?.isStale == true)
    }

    @Test("an invalidation by predicate, from any context, reloads the live screens it picks")
    func predicateInvalidationReloadsPickedScreens() async {
        mock.respond(to: "/posts/1", with: .json(Post.list([1])))
        mock.respond(to: "/posts/2", with: .json(Post.list([2])))
        mock.respond(to: "/posts/2", with: .json(Post.list([20])))
        let webservice = webservice()
        let first = screen(on: webservice)
        let second = screen(on: webservice)
        await first.load(resource: resource("/posts/1"))
        await second.load(resource: resource("/posts/2"))
        let states = second.states

        let covered = await Task.detached {
            webservice.invalidate(.matching { $0.url?.path == "/posts/2" })
        }.value
        #expect(covered == 1)
        for await state in states where state.content?.map(\.id) == [20] { break }
        #expect(first.ids == [1])
        #expect(mock.requestCount(for: "/posts/1") == 1)
        #expect(mock.requestCount(for: "/posts/2") == 2)
    }

    @Test("a value one screen loads is on the others before any job queued as it is configured")
    func sharedValueArrivesInTheSameTurn() async {
        let (webservice, first, _) = await screenShowingPosts()
        let second = screen(on: webservice)
        await second.load(resource: resource("/posts"))
        #expect(mock.requests.count == 1)
        mock.respond(to: "/posts", with: .json(Post.list([2, 1])))
        var seenByNextJob: [Int]?
        first.onConfigure = {
            Task { @MainActor in seenByNextJob = second.ids }
        }
        await first.load(resource: resource("/posts"), policy: .force)
        first.onConfigure = nil
        await Task.yield()
        while seenByNextJob == nil, !Task.isCancelled {
            await Task.yield()
        }
        #expect(seenByNextJob == [2, 1])
        #expect(second.configured == [[1], [2, 1]])
    }

    @Test("a stale stored value is reloaded when a screen next shows it")
    func invalidatedValueReloadsWhenShown() async {
        mock.respond(to: "/posts", with: .json(Post.list([1])))
        mock.respond(to: "/posts", with: .json(Post.list([2])))
        let webservice = webservice()
        var first: PostsScreen? = screen(on: webservice)
        await first?.load(resource: resource("/posts"))
        first = nil
        webservice.invalidate(.resource(resource("/posts")))

        let later = screen(on: webservice)
        let task = later.startLoading(resource: resource("/posts"))
        #expect(later.ids == [1])
        #expect(later.loadingState.activity == .reloading)
        await task.finish()
        #expect(later.ids == [2])
        #expect(webservice.storedValue(for: resource("/posts"))?.isStale == false)
    }

    @Test("eviction never drops the value a live screen shows")
    func shownValueIsNotEvicted() async throws {
        for path in ["/posts", "/users/1", "/users/2", "/users/3"] {
            mock.respond(to: path, with: .json(Post.list([1])))
        }
        let webservice = webservice(StorageLimits(maximumEntries: 1))
        var shown: PostsScreen? = screen(on: webservice)
        await shown?.load(resource: resource("/posts"))
        _ = try await webservice.load(resource("/users/1"))
        _ = try await webservice.load(resource("/users/2"))
        #expect(webservice.storedValue(for: resource("/posts")) != nil)
        shown = nil
        _ = try await webservice.load(resource("/users/3"))
        #expect(webservice.storedValue(for: resource("/posts")) == nil)
        #expect(webservice.storedValueCount == 1)
    }

    @Test("a webservice without storage shares nothing")
    func disabledStorageSharesNothing() async {
        mock.respond(to: "/posts", with: .json(Post.list([1])))
        mock.respond(to: "/posts", with: .json(Post.list([1])))
        let webservice = webservice(.disabled)
        await screen(on: webservice).load(resource: resource("/posts"))
        let other = screen(on: webservice)
        await other.load(resource: resource("/posts"))
        #expect(mock.requests.count == 2)
        #expect(webservice.storedValueCount == 0)
    }
}
