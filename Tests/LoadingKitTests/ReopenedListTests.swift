import Foundation
import LoadingKit
import LoadingKitNetworking
import LoadingKitTesting
import Testing

/// A paged list opened again — another screen, or the same list after the screen that
/// held it disappeared, or after a relaunch — shows the pages it held as its first
/// frame, then revalidates them as a stored value is. Over real `URLSession` against a loopback server of posts,
/// ten a page, with `X-Total-Count` and an `ETag` per page.
@MainActor
@Suite("A paged list opened again", .timeLimit(.minutes(1)))
struct ReopenedListTests {
    let server: LoopbackServer
    /// The posts the server holds, head first.
    let posts = Locked(Array(1...100))
    /// The `Cache-Control` the server sends, if any.
    let cacheControl = Locked<String?>(nil)
    /// The pages the server answers with a server error.
    let failing = Locked<Set<Int>>([])
    let webservice = Webservice(transport: URLSessionTransport())

    init() throws {
        server = try LoopbackServer()
        server.route("/posts") { [posts, cacheControl, failing] request in
            let all = posts.withLock { $0 }
            let page = request.query("page").flatMap(Int.init) ?? 1
            if failing.withLock({ $0.contains(page) }) {
                return .text("busy", status: 503)
            }
            let items = Array(all.dropFirst((page - 1) * 10).prefix(10))
            var answer = MockResponse.json(Post.list(items)).header("X-Total-Count", "\(all.count)")
            if let directive = cacheControl.withLock({ $0 }) {
                answer = answer.header("Cache-Control", directive)
            }
            let tag = "\"\(page)-\(items.map(String.init).joined(separator: "."))\""
            return .revalidating(request, entityTag: tag, answer)
        }
    }

    /// A screen of the server's posts that has loaded `pages` pages.
    private func screen(loading pages: Int, maxPages: Int? = nil) async -> PostPages {
        let screen = PostPages(server: server, webservice: webservice, maxPages: maxPages)
        await screen.loadFirstPage()
        for _ in 1..<pages {
            await screen.loadNextPage()
        }
        return screen
    }

    @Test(
        "another screen shows the pages held, cursors and total, in its first frame, with no request while fresh"
    )
    func secondScreen() async throws {
        let first = await screen(loading: 3)
        let sent = server.requestCount(for: "/posts")

        let second = PostPages(server: server, webservice: webservice)
        let opening = second.startLoadingFirstPage()

        #expect(second.ids == Array(1...30))  // before any answer
        #expect(second.loadingState.placeholder == .content)
        #expect(second.pagination.pagesLoaded == 3)
        #expect(second.pagination.totalCount == 100)
        #expect(second.changes == [.replaced])
        await opening.finish()
        #expect(server.requestCount(for: "/posts") == sent)

        await second.loadNextPage()
        #expect(second.ids == Array(1...40))
        #expect(first.ids == Array(1...30))
    }

    @Test(
        "a list opened after its screen disappeared shows the window it held: the pages dropped stay reachable"
    )
    func reopenedWindow() async throws {
        var first: PostPages? = await screen(loading: 3, maxPages: 2)
        #expect(first?.ids == Array(11...30))
        first?.loadingDidDisappear()
        first = nil

        let reopened = PostPages(server: server, webservice: webservice, maxPages: 2)
        reopened.startLoadingFirstPage()
        #expect(reopened.ids == Array(11...30))
        #expect(reopened.pagination.hasPreviousPages)

        await reopened.loadPreviousPage()
        #expect(reopened.ids == Array(1...20))
    }

    @Test(
        "a stale list is shown, then revalidated page by page with conditional requests; 304s keep it"
    )
    func staleRevalidated() async throws {
        cacheControl.withLock { $0 = "no-cache" }
        let first = await screen(loading: 3)
        first.loadingDidDisappear()
        let sent = server.requests.count

        let reopened = PostPages(server: server, webservice: webservice)
        let opening = reopened.startLoadingFirstPage()
        #expect(reopened.ids == Array(1...30))
        await opening.finish()

        let revalidations = server.requests.dropFirst(sent)
        #expect(revalidations.count == 3)
        #expect(revalidations.allSatisfy { $0.header("If-None-Match") != nil })
        #expect(reopened.ids == Array(1...30))
        #expect(reopened.changes == [.replaced])  // the snapshot; the 304s changed nothing
        #expect(reopened.loadingState.activity == .idle)
    }

    @Test("a reload the server answers with 304s only clears the error of a page that failed")
    func unchangedReloadClearsPageError() async throws {
        let screen = await screen(loading: 2)
        failing.withLock { $0 = [3] }
        await screen.loadNextPage()
        #expect(screen.pagination.pageError != nil)
        failing.withLock { $0 = [] }
        let sent = server.requests.count

        await screen.loadFirstPage(policy: .force)

        #expect(server.requests.dropFirst(sent).count == 2)
        #expect(screen.ids == Array(1...20))
        #expect(screen.pagination.pageError == nil)
        await screen.loadNextPageIfNeeded(currentIndex: 19)?.finish()
        #expect(screen.ids == Array(1...30))
    }

    @Test("a stale list the server changed meanwhile is replaced by the pages it answers")
    func staleChanged() async throws {
        cacheControl.withLock { $0 = "no-cache" }
        let first = await screen(loading: 2)  // still on screen as the second opens
        posts.withLock { $0.insert(contentsOf: [102, 101], at: 0) }

        let reopened = PostPages(server: server, webservice: webservice)
        let opening = reopened.startLoadingFirstPage()
        #expect(reopened.ids == Array(1...20))
        await opening.finish()

        // The pages held again, and the page after them that covers the last row shown.
        #expect(reopened.ids == [102, 101] + Array(1...28))
        #expect(reopened.pagination.totalCount == 102)
        #expect(first.ids == Array(1...20))
    }

    @Test(
        "after a relaunch the window held is shown from disk in the first frame, then revalidated"
    )
    func relaunch() async throws {
        let directory = FileManager.default.temporaryDirectory
            .appending(path: "reopened-list-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        func launch() -> Webservice {
            Webservice(
                transport: URLSessionTransport(),
                configuration: .init(persistentStore: DiskResourceStore(directory: directory))
            )
        }
        let before = launch()
        let first = PostPages(server: server, webservice: before, maxPages: 2)
        await first.loadFirstPage()
        await first.loadNextPage()
        await first.loadNextPage()
        #expect(first.ids == Array(11...30))
        await before.persistPendingValues()
        let sent = server.requests.count

        let reopened = PostPages(server: server, webservice: launch(), maxPages: 2)
        let opening = reopened.startLoadingFirstPage()
        #expect(reopened.ids == Array(11...30))  // before any answer
        #expect(reopened.pagination.totalCount == 100)
        #expect(reopened.pagination.hasPreviousPages)
        await opening.finish()

        // The two pages held, asked again with the validators they were written with.
        let revalidations = server.requests.dropFirst(sent)
        #expect(revalidations.count == 2)
        #expect(revalidations.allSatisfy { $0.header("If-None-Match") != nil })
        #expect(reopened.ids == Array(11...30))
        await reopened.loadPreviousPage()
        #expect(reopened.ids == Array(1...20))
    }

    @Test(
        "after a relaunch a list its server keeps fresh is shown from disk with no request, and so are its rows' details"
    )
    func freshRelaunch() async throws {
        cacheControl.withLock { $0 = "max-age=60" }
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let before = launch(in: directory)
        let first = PostPages(server: server, webservice: before, storingPosts: true)
        await first.loadFirstPage()
        await first.loadNextPage()
        await before.persistPendingValues()
        let sent = server.requests.count

        let relaunched = launch(in: directory)
        let reopened = PostPages(server: server, webservice: relaunched, storingPosts: true)
        await reopened.loadFirstPage()
        #expect(reopened.ids == Array(1...20))
        #expect(reopened.pagination.pagesLoaded == 2)
        let detail = DetailScreen(webservice: relaunched)
        await detail.load(resource: reopened.detail(id: 15))
        #expect(detail.titles == [try #require(reopened.loadingState.content?[14].title)])
        #expect(detail.loadingState.error == nil)
        #expect(server.requests.count == sent)
    }

    /// A webservice on a disk cache in `directory`, as each launch makes it.
    private func launch(in directory: URL) -> Webservice {
        Webservice(
            transport: URLSessionTransport(),
            configuration: .init(persistentStore: DiskResourceStore(directory: directory))
        )
    }

    private func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appending(path: "reopened-\(UUID().uuidString)")
    }

    @Test("a list reset leaves nothing for the next screen, in memory or on disk")
    func reset() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let webservice = launch(in: directory)
        let first = PostPages(server: server, webservice: webservice)
        await first.loadFirstPage()
        await first.loadNextPage()
        first.loadingDidDisappear()
        await webservice.persistPendingValues()

        first.resetLoading()
        await webservice.persistPendingValues()

        let afterReset = PostPages(server: server, webservice: webservice)
        afterReset.startLoadingFirstPage()
        #expect(afterReset.ids == [])
        let relaunched = PostPages(server: server, webservice: launch(in: directory))
        relaunched.startLoadingFirstPage()
        #expect(relaunched.ids == [])
    }

    @Test(
        "a list whose pages are no longer stored — no-store, values removed at sign-out — forgets what it kept"
    )
    func noLongerStored() async throws {
        let first = await screen(loading: 2)
        first.loadingDidDisappear()
        cacheControl.withLock { $0 = "no-store" }
        posts.withLock { $0.insert(101, at: 0) }
        await first.reload(policy: .force)  // new pages, which the server says not to store
        first.loadingDidDisappear()
        let afterNoStore = PostPages(server: server, webservice: webservice)
        afterNoStore.startLoadingFirstPage()
        #expect(afterNoStore.ids == [])

        cacheControl.withLock { $0 = nil }
        let signingOut = Webservice(transport: URLSessionTransport())
        let signedIn = PostPages(server: server, webservice: signingOut)
        await signedIn.loadFirstPage()
        signedIn.loadingDidDisappear()
        signingOut.removeStoredValues()  // signing out: the screen still shows its rows
        #expect(signedIn.ids.count == 10)
        signedIn.loadingDidDisappear()
        let afterSignOut = PostPages(server: server, webservice: signingOut)
        afterSignOut.startLoadingFirstPage()
        #expect(afterSignOut.ids == [])
    }

    @Test("a screen bounded to fewer pages than the list held starts from the first page")
    func boundedScreen() async throws {
        let first = await screen(loading: 3)
        first.loadingDidDisappear()

        let bounded = PostPages(server: server, webservice: webservice, maxPages: 2)
        let opening = bounded.startLoadingFirstPage()
        #expect(bounded.ids == [])
        await opening.finish()
        #expect(bounded.ids == Array(1...10))
    }

    @Test("a list whose later pages carry a credential is kept in memory, never on disk")
    func credentialedPagesStayInMemory() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let webservice = launch(in: directory)
        let first = PostPages(server: server, webservice: webservice, signingLaterPages: true)
        await first.loadFirstPage()
        await first.loadNextPage()
        first.loadingDidDisappear()
        await webservice.persistPendingValues()

        let again = PostPages(server: server, webservice: webservice, signingLaterPages: true)
        again.startLoadingFirstPage()
        #expect(again.ids == Array(1...20))
        let relaunched = PostPages(
            server: server,
            webservice: launch(in: directory),
            signingLaterPages: true
        )
        relaunched.startLoadingFirstPage()
        #expect(relaunched.ids == [])
    }

    @Test("a load ignoring caches shows no snapshot: the list starts from its first page")
    func ignoringCache() async throws {
        let first = await screen(loading: 3)
        first.loadingDidDisappear()

        let reopened = PostPages(server: server, webservice: webservice)
        let opening = reopened.startLoadingFirstPage(policy: .force.ignoringCache)
        #expect(reopened.ids == [])
        await opening.finish()
        #expect(reopened.ids == Array(1...10))
    }
}

/// The server's posts, ten a page, numbered.
@MainActor
private final class PostPages: Paginating {
    let loading = LoadingCore<[Post]>()
    let webservice: Webservice
    let server: LoopbackServer
    let maxPages: Int?
    /// Whether the pages after the first carry an `Authorization` header.
    let signsLaterPages: Bool
    /// Whether each post is stored under its own resource, ``detail(id:)``.
    let storesPosts: Bool
    private(set) var changes: [ContentChange] = []

    init(
        server: LoopbackServer,
        webservice: Webservice,
        maxPages: Int? = nil,
        signingLaterPages: Bool = false,
        storingPosts: Bool = false
    ) {
        self.server = server
        self.webservice = webservice
        self.maxPages = maxPages
        signsLaterPages = signingLaterPages
        storesPosts = storingPosts
    }

    /// Post `id`'s own resource, which the server does not serve.
    nonisolated func detail(id: Int) -> Resource<Post> {
        Resource(url: server.url("/posts/\(id)"))
    }

    func resource(forPage page: Int?) -> Resource<Page<Post, Int>> {
        var resource = Resource<Page<Post, Int>>.pageNumber(
            url: server.url("/posts"),
            page: page,
            size: 10
        )
        if signsLaterPages, (page ?? 1) > 1 {
            resource.request.setValue("Bearer s3cret", forHTTPHeaderField: "Authorization")
        }
        guard storesPosts else { return resource }
        return resource.storingElements(\.items) { [self] in detail(id: $0.id) }
    }

    func didApply(_ change: ContentChange) { changes.append(change) }

    var ids: [Int] { loadingState.content?.map(\.id) ?? [] }
}
