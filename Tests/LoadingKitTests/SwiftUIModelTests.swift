import Foundation
import LoadingKit
import LoadingKitExamples
import LoadingKitTesting
import Observation
import Testing

/// The model of the SwiftUI example, over real `URLSession` against a loopback server
/// that pages with `Link` headers: what a SwiftUI list sees through Observation.
@MainActor
@Suite("The SwiftUI example's model", .timeLimit(.minutes(1)))
struct SwiftUIModelTests {
    /// A server of `pages` pages of two episodes, newest first; `newest` episodes are
    /// added at the head when asked.
    final class EpisodeServer: Sendable {
        let server: LoopbackServer
        private let newest = Locked(0)

        init(pages: Int) throws {
            server = try LoopbackServer()
            server.route("/episodes") { [newest, server] request in
                let page = Int(request.query("page") ?? "1") ?? 1
                let added = newest.withLock { $0 }
                var ids = Array((1...pages * 2).reversed())
                if added > 0 {
                    ids.insert(contentsOf: (pages * 2 + 1...pages * 2 + added).reversed(), at: 0)
                }
                let slice = ids.dropFirst((page - 1) * 2).prefix(2)
                let episodes = slice.map { Episode(id: $0, title: "Episode \($0)") }
                let next = server.url("/episodes?page=\(page + 1)")
                let more = (page - 1) * 2 + 2 < ids.count
                return .json(episodes, headers: more ? ["Link": "<\(next)>; rel=\"next\""] : [:])
            }
        }

        func add(_ count: Int) { newest.withLock { $0 += count } }
    }

    let transport = URLSessionTransport()

    /// The example's list model, paging through `api`.
    func episodes(from api: EpisodeServer) -> EpisodeList {
        EpisodeList(
            firstPage: api.server.url("/episodes"),
            webservice: Webservice(transport: transport)
        )
    }

    @Test("a tracked view is told when the first page arrives, and only then")
    func trackedFirstPage() async throws {
        let api = try EpisodeServer(pages: 3)
        let list = episodes(from: api)
        let changes = Locked(0)
        withObservationTracking {
            _ = list.loadingState.content
        } onChange: {
            changes.withLock { $0 += 1 }
        }
        #expect(changes.withLock { $0 } == 0)
        await list.loadFirstPage()
        #expect(changes.withLock { $0 } == 1)
        #expect(list.loadingState.content?.map(\.id) == [6, 5])
    }

    @Test("Observations sees the rows grow through a refresh and the pages, to the end")
    @available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
    func observedRows() async throws {
        let api = try EpisodeServer(pages: 2)
        let list = episodes(from: api)
        let counts = Observations { list.loadingState.content?.count ?? 0 }
        var seen = counts.makeAsyncIterator()
        #expect(await seen.next() == 0)
        await list.loadFirstPage()
        #expect(await seen.next() == 2)
        api.add(1)
        await list.refresh()
        #expect(await seen.next() == 3)
        #expect(list.loadingState.content?.first?.title == "Episode 5")
        // Page 2 now starts with episode 3, shown already: it is not shown twice.
        await list.loadNextPage()
        #expect(await seen.next() == 4)
        await list.loadNextPage()
        #expect(await seen.next() == 5)
        #expect(list.pagination.hasMorePages == false)
        #expect(list.loadingState.content?.map(\.id) == [5, 4, 3, 2, 1])
    }

    @Test("the placeholder a view switches on goes from loading to content")
    func placeholders() async throws {
        let api = try EpisodeServer(pages: 1)
        let list = episodes(from: api)
        #expect(list.loadingState.placeholder == .blank)
        let load = list.loadingDidAppear()
        #expect(list.loadingState.placeholder == .loading)
        await load?.finish()
        #expect(list.loadingState.placeholder == .content)
    }
}
