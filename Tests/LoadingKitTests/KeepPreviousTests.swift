import Foundation
import LoadingKit
import LoadingKitNetworking
import LoadingKitTesting
import Testing

/// A screen switching resource — a search box, a filter — can keep the previous
/// content on screen, marked as previous, until the new answer applies; by default the
/// content is cleared. Over real `URLSession` against a loopback server.
@MainActor
@Suite("Keeping the previous content", .timeLimit(.minutes(1)))
struct KeepPreviousTests {
    let server: LoopbackServer
    let held = DispatchSemaphore(value: 0)
    let arrived = CounterSignal()

    init() throws {
        server = try LoopbackServer()
        server.route("/search") { [held, arrived] request in
            if request.query("q") != "a" {
                arrived.increment()
                held.wait()
            }
            if request.query("q") == "broken" { return .status(500) }
            return .json(Post.list(request.query("q") == "a" ? [1, 2] : [3]))
        }
    }

    private func search(_ query: String) -> Resource<[Post]> {
        Resource(url: server.url("/search?q=\(query)"))
    }

    /// Lets the held answer go once request `arrival` has arrived, and waits for `task`.
    private func answer(_ task: LoadTask, arrival: Int) async {
        await arrived.wait(for: arrival)
        held.signal()
        await task.finish()
    }

    /// A screen showing the results for `a`.
    private func screen() async -> PostsScreen {
        let screen = PostsScreen(webservice: Webservice(transport: URLSessionTransport()))
        await screen.load(resource: search("a"))
        return screen
    }

    @Test("the previous results stay shown, marked previous, until the new ones apply")
    func keepsPreviousUntilApplied() async throws {
        let screen = await screen()

        let task = screen.startLoading(
            resource: search("ab"),
            policy: .ifNeeded.keepingPreviousContent
        )
        await arrived.wait(for: 1)
        #expect(screen.ids == [1, 2])
        #expect(screen.loadingState.isPreviousContent)
        #expect(screen.loadingState.placeholder == .content)
        #expect(screen.loadingState.isLoading)
        await answer(task, arrival: 1)

        #expect(screen.ids == [3])
        #expect(!screen.loadingState.isPreviousContent)
        #expect(screen.configured == [[1, 2], [3]])
    }

    @Test("by default a load of another resource clears the content as it starts")
    func clearsByDefault() async throws {
        let screen = await screen()

        let task = screen.startLoading(resource: search("ab"))
        await arrived.wait(for: 1)
        #expect(screen.ids == nil)
        #expect(screen.loadingState.placeholder == .loading)
        await answer(task, arrival: 1)
        #expect(screen.ids == [3])
    }

    @Test(
        "a failed load leaves the previous content marked, and is never current for the new resource"
    )
    func failureKeepsItMarked() async throws {
        let screen = await screen()

        let task = screen.startLoading(
            resource: search("broken"),
            policy: .ifNeeded.keepingPreviousContent
        )
        await answer(task, arrival: 1)
        #expect(screen.ids == [1, 2])
        #expect(screen.loadingState.isPreviousContent)
        #expect(screen.loadingState.error != nil)

        // Asked again, it is loaded again: the results shown are not its own.
        let again = screen.startLoading(resource: search("broken"), policy: .ifNeeded)
        await answer(again, arrival: 2)
        #expect(server.requestCount(for: "/search") == 3)
    }
}

/// A refreshable list of search results.
@MainActor
private final class ResultsScreen: Refreshable {
    let loading = LoadingCore<[Post]>()
    let webservice = Webservice(transport: URLSessionTransport())
    var query: Resource<[Post]>

    init(query: Resource<[Post]>) {
        self.query = query
    }

    func configure(value: [Post]) {}

    func refreshResource(newerThan first: Post?) -> Resource<[Post]> { query }
}

extension KeepPreviousTests {
    @Test(
        "a refresh while the previous content is kept loads the new resource, merging nothing into it"
    )
    func refreshDoesNotMergeIntoPrevious() async throws {
        let screen = ResultsScreen(query: search("a"))
        await screen.load(resource: search("a"))
        screen.query = search("broken")
        let failing = screen.startLoading(
            resource: search("broken"),
            policy: .ifNeeded.keepingPreviousContent
        )
        await answer(failing, arrival: 1)
        #expect(screen.loadingState.isPreviousContent)

        screen.query = search("ab")
        let refreshing = Task { await screen.refresh() }
        await arrived.wait(for: 2)
        held.signal()
        await refreshing.valuePropagatingCancellation

        #expect(screen.loadingState.content?.map(\.id) == [3])
        #expect(!screen.loadingState.isPreviousContent)
    }
}
