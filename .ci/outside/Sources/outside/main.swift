import Foundation
import LoadingKit
import LoadingKitTesting

// A list screen as the README writes one, paged both ways in a window of two pages and
// refreshed at the head, against a loopback server; progress observed around a load;
// a link to another origin refused while a monitor listens; a numbered page; a generic
// conformer. Exits non-zero when anything differs from what the tests say. `.ci/run`
// builds it twice: as SwiftPM builds it, and with `-cross-module-optimization`.

struct Story: Codable, Sendable, Identifiable {
    let id: Int
}

@MainActor final class StoriesScreen: Paginating, Refreshable {
    let loading = LoadingCore<[Story]>()
    let maxPages: Int? = 2
    let newest: URL
    init(newest: URL) { self.newest = newest }
    func resource(forPage cursor: URL?) -> Resource<Page<Story, URL>> {
        .linked(url: cursor ?? newest)
    }
    func refreshResource(newerThan first: Story?) -> Resource<[Story]> { Resource(url: newest) }
}

@MainActor final class Generic<Value: Sendable>: Loading {
    let loading = LoadingCore<Value>()
    func configure(value: Value) {}
}

func expect(_ condition: Bool, _ what: String) {
    guard !condition else { return }
    FileHandle.standardError.write(Data("outside: \(what)\n".utf8))
    exit(1)
}

let server = try LoopbackServer()
server.route("/stories") { request in
    let page = Int(request.query("page") ?? "1") ?? 1
    var links = ["</stories?page=\(page + 1)>; rel=\"next\""]
    if page > 1 { links.append("</stories?page=\(page - 1)>; rel=\"prev\"") }
    let stories = (1...3).map { Story(id: 100 - 3 * page + 3 - $0) }
    return .json(
        stories,
        headers: [("Link", links.joined(separator: ", ")), ("X-Total-Count", "300")]
    )
}
server.route("/empty") { _ in .json([Int]()) }
server.route("/garbled") { _ in
    .json([Story(id: 1)], headers: [("Link", "/stories?page=2; rel=\"next\"")])
}
server.route("/elsewhere") { _ in
    .json([Story(id: 1)], headers: [("Link", "<http://127.0.0.2:1/stories>; rel=\"next\"")])
}

let screen = StoriesScreen(newest: server.url("/stories"))
await screen.loadingDidAppear()?.finish()
await screen.loadNextPage()
await screen.loadNextPage()
expect(screen.loadingState.content?.map(\.id) == [96, 95, 94, 93, 92, 91], "a window of two pages")
expect(screen.pagination.hasPreviousPages && screen.pagination.totalCount == 300, "page metadata")
await screen.loadPreviousPage()
expect(screen.loadingState.content?.map(\.id) == [99, 98, 97, 96, 95, 94], "a previous page")
await screen.refresh()
func reload(_ loader: some Loading) async { await loader.reload() }
await reload(screen)
expect(screen.pagination.pagesLoaded == 2, "a reload of the pages held")

let stories = try await TransferProgress.observing { _ in
} during: {
    try await Webservice().load(Resource<[Story]>(url: server.url("/stories")))
}
expect(stories.count == 3 && TransferProgress.observer == nil, "progress observed around a load")

let recorder = EventRecorder()
let monitored = Webservice(configuration: .init(monitor: recorder))
let elsewhere = try await monitored.load(
    Resource<Page<Story, URL>>.linked(url: server.url("/elsewhere"))
)
let refused = recorder.events.contains {
    if case .linkRefused = $0.kind { true } else { false }
}
expect(elsewhere.next == nil && refused, "a link to another origin refused, and reported")

let garbled = try await monitored.load(
    Resource<Page<Story, URL>>.linked(url: server.url("/garbled"))
)
let unreadable = recorder.events.contains { $0.kind == .linkMalformed(valuesLeftOut: 1) }
expect(garbled.next == nil && unreadable, "an unreadable Link reported")

let numbered = try await Webservice().load(
    Resource<Page<Story, Int>>.pageNumber(url: server.url("/stories"), page: 2, size: 3)
)
expect(numbered.next == 3 && numbered.previous == 1, "a numbered page and its neighbours")

let generic = Generic<[Int]>()
await generic.load(resource: Resource(url: server.url("/empty")))
expect(generic.loadingState.placeholder == .empty, "a generic conformer's empty placeholder")

server.stop()
print("outside: the public API builds and runs from another package")
