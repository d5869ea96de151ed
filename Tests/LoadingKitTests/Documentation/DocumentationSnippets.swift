import Foundation
import LoadingKit
import LoadingKitTesting

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// The code of README.md and of the DocC articles, compiled here. Each region between
// `// snippet: NAME` and `// end snippet` must appear verbatim (indentation aside) as
// a code block of a document; DocumentationTests checks that it does.

// snippet: readme-album
struct Album: Codable, Sendable {
    let id: Int
    let title: String
}

@MainActor final class AlbumScreen: Loading {
    let loading = LoadingCore<Album>()  // the one stored property a screen needs
    private(set) var title = ""
    func configure(value: Album) { title = value.title }
}
// end snippet

// snippet: model
struct Episode: Codable, Sendable {
    let id: Int
    let title: String
}

extension Episode {
    static func resource(id: Int) -> Resource<Episode> {
        Resource(url: URL(string: "https://api.example.com/episodes/\(id)")!)  // JSON GET
    }
}

@MainActor final class EpisodeScreen: Loading {
    let loading = LoadingCore<Episode>()  // the one stored property the mixin needs
    private(set) var title = ""
    func configure(value: Episode) { title = value.title }
}
// end snippet

@MainActor
enum DocumentationSnippets {
    static func loadingAScreen() async {
        // snippet: load-screen
        let screen = EpisodeScreen()
        await screen.load(resource: Episode.resource(id: 1))  // only if nothing is loaded yet
        print(screen.loadingState.placeholder)  // content: loading, empty and error are the others
        // end snippet
    }

    /// The detail-screen recipe of Getting Started, run by DocumentationTests.
    static func detailOnALocalServer() async throws -> String {
        // snippet: local-detail
        let server = try LoopbackServer()  // LoadingKitTesting: HTTP on 127.0.0.1, any free port
        server.route("/episodes/1") { _ in .json(Episode(id: 1, title: "Pilot")) }
        let screen = EpisodeScreen()
        await screen.load(resource: Resource(url: server.url("/episodes/1")))  // real URLSession
        print(screen.title)  // Pilot
        server.stop()
        // end snippet
        return screen.title
    }

    /// The README's first run, on a local server, run by DocumentationTests.
    static func albumOnALocalServer() async throws -> String {
        // snippet: readme-album-local
        let server = try LoopbackServer()  // a real HTTP server on 127.0.0.1: no network needed
        server.route("/albums/1") { _ in .json(Album(id: 1, title: "Pilot")) }
        let screen = AlbumScreen()
        await screen.load(resource: Resource<Album>(url: server.url("/albums/1")))  // URLSession
        print(screen.title)  // Pilot
        // end snippet
        return screen.title
    }

    static func loadingAnAlbum() async {
        // snippet: readme-album-load
        // JSONPlaceholder, a public test API: any JSON GET works the same way.
        let url = URL(string: "https://jsonplaceholder.typicode.com/albums/1")!
        let screen = AlbumScreen()
        await screen.load(resource: Resource<Album>(url: url))  // only if nothing is loaded yet
        print(screen.title, screen.loadingState.placeholder)  // quidem molestiae enim content
        // end snippet
    }

    static func policies(screen: EpisodeScreen) async {
        // snippet: policies
        await screen.load(resource: Episode.resource(id: 1), policy: .force)  // always
        await screen.load(resource: Episode.resource(id: 1), policy: .background)  // keep content
        screen.cancelLoading()  // back to the state before the load, no error
        // end snippet
    }

    static func placeholders(screen: EpisodeScreen) {
        // snippet: placeholder
        switch screen.loadingState.placeholder {
        case .blank: break  // nothing requested yet
        case .loading: print("spinner")
        case .empty: print("nothing here yet")
        case .error(let error): print(error.description)
        case .content: print(screen.title)
        }
        // end snippet
    }

    static func observing(screen: EpisodeScreen) async {
        // snippet: observe
        for await state in screen.states {
            print(state.activity, state.placeholder)
        }
        // end snippet
    }

    static func container() async {
        // snippet: container
        let container = LoadingContainer(resource: Episode.resource(id: 1)) { episode in
            "Now playing: \(episode.title)"
        }
        await container.load()
        print(container.content ?? "…")
        // end snippet
    }
}

// snippet: testing
@MainActor
func testEpisodeScreen() async throws {
    let mock = MockTransport()
    mock.respond(to: "/episodes/1", with: .json(Episode(id: 1, title: "Pilot")))
    let screen = TestableEpisodeScreen(webservice: Webservice(transport: mock))
    await screen.load(resource: Episode.resource(id: 1))
    assert(screen.title == "Pilot")
    try mock.verifyAllConsumed()
}

@MainActor final class TestableEpisodeScreen: Loading {
    let loading = LoadingCore<Episode>()
    let webservice: Webservice  // replaces the default, Webservice.shared
    private(set) var title = ""
    init(webservice: Webservice) { self.webservice = webservice }
    func configure(value: Episode) { title = value.title }
}
// end snippet

// snippet: refresh-model
struct Story: Codable, Sendable, Identifiable {
    let id: Int
    let title: String
}

extension Story {
    static func feed(since id: Int?, before last: Int? = nil) -> Resource<[Story]> {
        let query = [("since", id), ("before", last)].compactMap { name, value in
            value.map { URLQueryItem(name: name, value: String($0)) }
        }
        return Resource(url: URL(string: "https://api.example.com/stories")!, query: query)
    }
}

@MainActor final class StoryFeed: Refreshable {
    let loading = LoadingCore<[Story]>()
    func configure(value: [Story]) {}  // rows are drawn from loadingState.content
    func refreshResource(newerThan first: Story?) -> Resource<[Story]> {
        Story.feed(since: first?.id)
    }
    func didApply(_ change: ContentChange) {
        if case .inserted(let indices) = change { print("insert rows", Array(indices)) }
    }
}
// end snippet

// snippet: refresh-gaps
extension StoryFeed {
    var refreshPageSize: Int? { 20 }  // a shorter page is complete: no gap after it
    func refreshResource(following page: [Story], newerThan first: Story?) -> Resource<[Story]>? {
        Story.feed(since: first?.id, before: page.last?.id)
    }
}
// end snippet

// snippet: pull-indicator
@MainActor final class Spinner: PullToRefreshIndicating {
    private(set) var shown = 0.0  // 0 hidden, 1 at the threshold
    private(set) var isSpinning = false
    func update(progress: Double, beyondThreshold: Bool) { shown = progress }
    func startAnimating() { isSpinning = true }
    func stopAnimating() { isSpinning = false }
}
// end snippet

@MainActor
enum RefreshSnippets {
    static func refreshing(feed: StoryFeed) async {
        // snippet: refresh-call
        await feed.refresh()  // keeps the rows shown; prepends what is new
        print(feed.loadingState.activity)  // idle again; refreshing while it ran
        // end snippet
    }

    static func pulling(feed: StoryFeed, spinner: any PullToRefreshIndicating) {
        // snippet: pull-to-refresh
        let pull = PullToRefresh(threshold: 60, indicator: spinner, refreshing: feed)
        pull.pulled(to: 30)  // spinner.update(progress: 0.5, beyondThreshold: false)
        pull.pulled(to: 75)  // spinner.update(progress: 1, beyondThreshold: true)
        pull.released()  // spinner.startAnimating(), then feed.refresh()
        print(pull.contentInset)  // 60 while refreshing, so the spinner stays in view
        // end snippet
    }
}

extension Story {
    static let newest = URL(string: "https://api.example.com/stories")!
}

// snippet: list-screen
@MainActor final class StoriesScreen: Paginating, Refreshable {
    let loading = LoadingCore<[Story]>()  // the rows: draw from loadingState.content
    let maxPages: Int? = 10  // older pages are dropped, and loaded back when scrolled to
    func resource(forPage cursor: URL?) -> Resource<Page<Story, URL>> {
        .linked(url: cursor ?? Story.newest)  // Link: rel="next" and rel="prev"
    }
    func refreshResource(newerThan first: Story?) -> Resource<[Story]> {
        Resource(url: Story.newest)  // the newest page: the rows it shares tell what is new
    }
    func didApply(_ change: ContentChange) { print(change) }  // insert, append or remove rows
}
// end snippet

@MainActor
enum ListSnippets {
    static func list() async {
        // snippet: list-calls
        let stories = StoriesScreen()
        stories.loadingDidAppear()  // the first page; the pages held, once stale
        await stories.refresh()  // new stories at the head (scrolled down: the window reloads)
        stories.loadNextPageIfNeeded(currentIndex: 42)  // scrolling down
        stories.loadPreviousPageIfNeeded(currentIndex: 0)  // scrolling back up
        print(stories.loadingState.placeholder)  // .content, .empty, .error, .loading
        // end snippet
    }
}

// snippet: paginate-model
struct Ticket: Codable, Sendable, Identifiable {
    let id: Int
    let title: String
    static let firstPage = URL(string: "https://api.example.com/tickets?per_page=50")!
}

@MainActor final class TicketsScreen: Paginating {
    let loading = LoadingCore<[Ticket]>()  // the rows: draw from loadingState.content
    func resource(forPage next: URL?) -> Resource<Page<Ticket, URL>> {
        .linked(url: next ?? Ticket.firstPage)  // follows Link: <…>; rel="next" and "prev"
    }
    func didApply(_ change: ContentChange) { print(change) }  // animate just what changed
}
// end snippet

// snippet: paginate-window
extension TicketsScreen {
    var maxPages: Int? { 10 }  // at most 10 pages of 50 tickets in memory
}
// end snippet

@MainActor
enum PaginationSnippets {
    static func paging(screen: TicketsScreen) async {
        // snippet: paginate-calls
        await screen.loadFirstPage()
        await screen.loadNextPage()  // no-op when nothing more, or a page is already in flight
        screen.loadNextPageIfNeeded(currentIndex: 42)  // the infinite-scroll trigger
        // end snippet
    }

    static func lifecycle(screen: TicketsScreen) async {
        // snippet: paginate-lifecycle
        screen.loadingDidAppear()  // the first page, or the pages held once they are stale
        screen.loadingDidDisappear()  // keeps the rows and pages for the next screen of the list
        await screen.reload()  // every page held, fresh
        screen.resetLoading()  // log-out: no rows, no pages, observers still subscribed
        // end snippet
    }

    static func previous(screen: TicketsScreen) async {
        // snippet: paginate-previous
        await screen.loadPreviousPage()  // no-op at the head of the list
        screen.loadPreviousPageIfNeeded(currentIndex: 3)  // scrolling back up
        // end snippet
    }

    static func totals(screen: TicketsScreen) {
        // snippet: paginate-totals
        if let total = screen.pagination.totalCount {
            print("\(screen.loadingState.content?.count ?? 0) of \(total) tickets")
        }
        // end snippet
    }

    static func strategies(next: Int?, cursor: String?) {
        let url = URL(string: "https://api.example.com/tickets")!
        // snippet: paginate-strategies
        let numbered: Resource<Page<Ticket, Int>> = .pageNumber(url: url, page: next, size: 50)
        let offset: Resource<Page<Ticket, Int>> = .offset(url: url, offset: next, limit: 50)
        let cursored: Resource<Page<Ticket, String>> = .cursor(
            url: url,
            cursor: cursor,
            envelope: TicketList.self,
            items: \.tickets,
            next: \.nextCursor
        )
        // end snippet
        _ = (numbered, offset, cursored)
    }

    static func footer(screen: TicketsScreen) {
        // snippet: paginate-footer
        if let error = screen.pagination.pageError {
            print("Couldn't load more: \(error). Tap to retry.")  // loadNextPage() asks again
        } else if screen.pagination.hasMorePages {
            print("Loading more…")
        }
        // end snippet
    }
}

// snippet: paginate-envelope
struct TicketList: Decodable {
    let tickets: [Ticket]
    let nextCursor: PageCursor?  // a string, a number, null or "" (the end)
    enum CodingKeys: String, CodingKey {
        case tickets
        case nextCursor = "next_cursor"
    }
}
// end snippet

enum PolicySnippets {
    static func configuration() -> Webservice {
        // snippet: policies-configuration
        var retry = RetryPolicy.standard  // 3 attempts, 0.5 s then 1 s apart, ±20 % jitter
        retry.onAttempt = { attempt in print("attempt \(attempt.number) in \(attempt.delay)") }
        let webservice = Webservice(configuration: .init(retry: retry))
        // end snippet
        return webservice
    }

    static func fetching(webservice: Webservice) async throws {
        // snippet: policies-fetch
        let fetched = try await webservice.fetch(Episode.resource(id: 1))
        if fetched.isNotModified {
            print("304: the stored value, with nothing downloaded or decoded")
        }
        // end snippet
    }

    static func identities() {
        // snippet: policies-identity
        let posts = Resource<[Episode]>(url: URL(string: "https://api.example.com/episodes")!)
        let newest = posts.map(identifiedBy: "newest") { Array($0.prefix(1)) }
        let alice = posts.header("Authorization", "Bearer alice")
        print(posts.identity == newest.identity)  // false: another parse
        print(posts.identity == alice.identity)  // false: another Authorization
        let again = posts.map(identifiedBy: "newest") { Array($0.prefix(1)) }
        print(newest.identity == again.identity)  // true: the same request and named parse
        // end snippet
    }

    static func directives(webservice: Webservice) async throws {
        // snippet: policies-directives
        let directives = try await webservice.fetch(Episode.resource(id: 1)).cacheDirectives
        print(directives.forbidsStoring, directives.requiresRevalidation)
        print(directives.freshnessLifetime ?? .zero)  // max-age − Age, or Expires − Date
        // end snippet
    }

    static func testingRetries() async throws {
        // snippet: policies-manual-clock
        let mock = MockTransport()
        mock.respond(
            to: "/episodes/1",
            with: .text("busy", status: 503, headers: ["Retry-After": "2"])
        )
        mock.respond(to: "/episodes/1", with: .json(Episode(id: 1, title: "Pilot")))
        let clock = ManualClock()
        let webservice = Webservice(
            transport: mock,
            configuration: .init(retry: .standard, clock: clock)
        )
        let load = Task { try await webservice.load(Episode.resource(id: 1)) }
        await clock.waitForSleepers(1)  // the retry waits for Retry-After…
        clock.advance(by: .seconds(2))  // …which passes at once
        print(try await load.value.title)
        // end snippet
    }
}

// snippet: policies-freshness
@MainActor final class ScheduleScreen: Loading {
    let loading = LoadingCore<[Episode]>()
    var maxAge: Duration? { .seconds(300) }  // older content reloads in the background
    var failureRetryInterval: Duration { .seconds(30) }  // after a failure, wait a little
    func configure(value: [Episode]) { print("\(value.count) episodes") }
}
// end snippet

// snippet: sharing-model
struct Todo: Codable, Sendable, Identifiable {
    let id: Int
    var title: String
    var done: Bool

    static let collection = URL(string: "https://api.example.com/todos")!
    static let all = Resource<[Todo]>(url: collection)
    static func update(_ todo: Todo) throws -> Resource<Todo> {
        try Resource(url: collection.appending(path: "\(todo.id)"), method: .put, body: todo)
    }
}

@MainActor final class TodosScreen: Loading {
    let loading = LoadingCore<[Todo]>()
    let webservice: Webservice
    init(webservice: Webservice) { self.webservice = webservice }
    func configure(value: [Todo]) { print("\(value.count) to do") }
}
// end snippet

// snippet: sharing-elements
extension Todo {
    static func resource(id: Int) -> Resource<Todo> {
        Resource(url: collection.appending(path: "\(id)"))
    }

    // A screen on resource(id:) shows an item this list holds without a request.
    static let listed = all.storingElements(as: { resource(id: $0.id) })
}
// end snippet

// snippet: outbox-kinds
struct Rename: Codable, Sendable {
    let id: Int
    let title: String
}

extension Todo {
    /// Renames the todo on every screen at once, and keeps the write until the server has it.
    static func renaming(_ rename: Rename) throws -> Mutation<Todo> {
        let renamed = Todo(id: rename.id, title: rename.title, done: false)
        return Mutation(try update(renamed))
            .optimistically(updating: resource(id: rename.id)) { $0.title = rename.title }
            .storingAnswer(as: resource(id: rename.id))
            .scoped("todo-\(rename.id)")  // edits of one todo reach the server in order
            .keptUntilSent(as: "rename-todo", input: rename)
    }
}
// end snippet

@MainActor
enum OutboxSnippets {
    static func setUp() -> Webservice {
        // snippet: outbox-setup
        let support = FileManager.default.urls(
            for: .applicationSupportDirectory,
            in: .userDomainMask
        )[0]
        let outbox = Outbox(directory: support.appending(path: "Outbox"))
        outbox.register("rename-todo", rebuild: Todo.renaming)  // before the webservice starts
        let webservice = Webservice(configuration: .init(outbox: outbox))
        // end snippet
        return webservice
    }

    static func send(screen: TodosScreen) async throws {
        // snippet: outbox-send
        let rename = try Todo.renaming(Rename(id: 3, title: "Call Ada"))
        do {
            let saved = try await screen.send(rename)
            print("Saved “\(saved.title)”")
        } catch .webservice(.queued(let write)) {
            print("Saved on this device; sent when the server is back (write \(write.sequence))")
        } catch .webservice(.badStatus(let failure)) {
            print("The server refused the change: \(failure.statusCode)")  // taken back
        } catch {
            print(error.description)
        }
        // end snippet
    }

    static func outcome(screen: TodosScreen, rename: Mutation<Todo>) async {
        // snippet: outbox-outcome
        let saving = screen.startSending(rename)
        await saving.finish()
        switch saving.outcome {
        case .sent(let saved): print("Saved “\(saved.title)”")
        case .queued: print("Saved on this device; sent when the server is back")
        case .failed(let error): print(error.description)  // taken back
        case .cancelled, nil: break
        }
        // end snippet
    }

    static func resume(outbox: Outbox) async {
        // snippet: outbox-resume
        await outbox.resume()  // the network is back: send what waits, in order
        print(outbox.pendingWrites.count, "changes still wait for their server")
        // end snippet
    }
}

@MainActor
enum SharingSnippets {
    static func sharing() async {
        // snippet: sharing-screens
        let webservice = Webservice()  // one store of values, shared by its screens
        let list = TodosScreen(webservice: webservice)
        await list.load(resource: Todo.all)
        let detail = TodosScreen(webservice: webservice)
        detail.startLoading(resource: Todo.all)  // shown at once; no request while fresh
        print(webservice.storedValue(for: Todo.all)?.isStale ?? true)
        // end snippet
    }

    static func invalidating(webservice: Webservice) {
        // snippet: sharing-invalidate
        webservice.invalidate(.resource(Todo.all))  // live screens reload it once
        webservice.invalidate(.prefix(Todo.collection))  // /todos, /todos/1, /todos?done=1…
        webservice.invalidate(.matching { $0.url?.query?.contains("done=") == true })
        // end snippet
    }

    static func mutating(screen: TodosScreen, todo: Todo) throws {
        // snippet: sharing-mutation
        let finished = Todo(id: todo.id, title: todo.title, done: true)
        let save = Mutation(try Todo.update(finished))
            .optimistically(updating: Todo.all) { todos in  // every screen shows it at once
                if let index = todos.firstIndex(where: { $0.id == todo.id }) {
                    todos[index] = finished
                }
            }
            .invalidating(.prefix(Todo.collection))  // once the server took it
        let saving = screen.startSending(save) { saving in  // a failure takes the change back
            if let error = saving.error { print(error.description) }
        }
        print(saving.isInFlight)  // observable: disable the button meanwhile
        // end snippet
    }

    static func awaitingMutation(screen: TodosScreen, todo: Todo) async throws {
        // snippet: sharing-mutation-answer
        let finished = Todo(id: todo.id, title: todo.title, done: true)
        let save = Mutation(try Todo.update(finished))
            .storingAnswer(as: Todo.resource(id: todo.id))  // the PUT answers the todo
            .mergingAnswer(into: Todo.all) { todos, saved in  // and it is in the list
                if let index = todos.firstIndex(where: { $0.id == saved.id }) {
                    todos[index] = saved
                }
            }
            .scoped("todo-\(todo.id)")  // sent after the edits of this todo before it
        let saved = try await screen.send(save)  // throws LoadingError; nothing left changed
        print(saved.done)
        // end snippet
    }

    static func editing(screen: TodosScreen, todo: Todo) {
        // snippet: sharing-edit
        screen.edit(.removing(id: todo.id))  // a swipe to delete: every screen, at once
        screen.edit(.replacing(todo))  // the item with the same identifier
        screen.edit(.inserting(todo, at: 0))  // moved to the top if it was shown
        screen.edit(.changing { $0.sort { $0.title < $1.title } })  // reported as .replaced
        // end snippet
    }

    static func offline() async {
        // snippet: sharing-offline
        let caches = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask)[0]
        let webservice = Webservice(
            configuration: .init(
                storage: StorageLimits(maximumEntries: 1_000, maximumCost: 64 << 20),
                persistentStore: DiskResourceStore(directory: caches.appending(path: "api"))
            )
        )
        // A cold start shows what was persisted at once; revalidated unless still fresh.
        await webservice.persistPendingValues()  // before the app is suspended
        // end snippet
    }
}

/// The account service the authentication snippets call.
enum AuthAPI {
    struct Session: Sendable {
        let account: String
        let accessToken: String
    }

    static func signIn(user: String, password: String) async throws -> Session {
        Session(account: user, accessToken: "token-of-\(user)")
    }

    static func renew(account: String) async throws -> Session {
        Session(account: account, accessToken: "renewed-token-of-\(account)")
    }
}

@MainActor
enum AuthenticationSnippets {
    static func setUp() -> (Webservice, Authenticator) {
        // snippet: auth-setup
        let authenticator = Authenticator { expired in
            // Called once, however many requests found the token expired.
            let renewed = try await AuthAPI.renew(account: expired.account)
            return Credential(account: expired.account, bearer: renewed.accessToken)
        }
        let webservice = Webservice(configuration: .init(authenticator: authenticator))
        // end snippet
        return (webservice, authenticator)
    }

    static func expiry() -> Authenticator {
        // snippet: auth-expiry
        let expires: @Sendable (HTTPURLResponse) -> Bool = { [401, 419].contains($0.statusCode) }
        let authenticator = Authenticator(isExpired: expires) { expired in
            let renewed = try await AuthAPI.renew(account: expired.account)
            return Credential(account: expired.account, bearer: renewed.accessToken)
        }
        // end snippet
        return authenticator
    }

    static func signIn(authenticator: Authenticator, screen: TodosScreen, password: String)
        async throws
    {
        // snippet: auth-sign-in
        let session = try await AuthAPI.signIn(user: "ada", password: password)
        authenticator.signIn(Credential(account: session.account, bearer: session.accessToken))
        await screen.load(resource: Todo.all)  // sent with ada's token
        // end snippet
    }

    static func errors(webservice: Webservice, showSignIn: () -> Void) async {
        // snippet: auth-errors
        do {
            let todos = try await webservice.load(Todo.all)
            print(todos.count)
        } catch .authentication(.refreshFailed) {
            showSignIn()  // the session ended: nothing is sent until someone signs in
        } catch {
            print(error.description)  // never a token
        }
        // end snippet
    }

    static func signOut(webservice: Webservice) {
        // snippet: auth-sign-out
        webservice.signOut()  // cancels, clears stored values and screens; kept writes wait
        // end snippet
    }
}
