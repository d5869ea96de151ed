import Foundation
import LoadingKit

/// The steps of the scripted session on the story server: a list and a detail sharing
/// one stored value, an optimistic rename, a rename the server refuses and that rolls
/// back, and a cold start from the offline cache.
@MainActor
struct SharingSteps {
    let stories: DemoStoryServer
    let renderer: any DemoRenderer
    let transport: any Transport
    /// Who hears the events of the steps' webservices, with `--verbose`.
    let monitor: (any LoadingMonitor)?

    /// What the steps showed.
    struct Outcome: Equatable {
        /// Requests the detail sent when it opened on the list's stored value.
        let detailRequests: Int
        /// Whether the refused rename was taken back on both screens.
        let rolledBack: Bool
        /// Whether the cold start showed the persisted value before the server answered.
        let coldStartFromDisk: Bool
        /// Whether the cold start's request was conditional, with the persisted `ETag`.
        let revalidatedConditionally: Bool
    }

    func run() async -> Outcome {
        let directory = FileManager.default.temporaryDirectory
            .appending(path: "loadingkit-demo-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let webservice = offlineWebservice(in: directory)
        let all = Story.all(on: stories.baseURL)

        await renderer.step("7. A list and a detail sharing one stored value")
        renderer.leaveFeed()
        let list = StoryScreen(webservice: webservice)
        await list.load(resource: all)
        renderer.note(
            "list: \(list.summary) · \(DemoFormat.count(stories.requestCount, "request"))"
        )
        let detail = StoryScreen(webservice: webservice, focus: 3)
        let opened = stories.requestCount
        detail.startLoading(resource: all)
        let detailRequests = stories.requestCount - opened
        renderer.note(
            "detail of story 3: \(detail.summary) shown at once, "
                + "\(DemoFormat.count(detailRequests, "request")) sent"
        )

        await renderer.step("8. An optimistic rename")
        let renamed = "Story 3, renamed"
        let saving = await rename(to: renamed, from: detail, alongside: list)
        await saving.finish()
        await list.load(resource: all)  // joins the reload the rename's invalidation began
        renderer.note("server accepted; both reloaded with one request: \(detail.summary)")

        await renderer.step("9. A rename the server refuses")
        stories.refuseNextRename()
        let refusedTitle = "Story 3, refused"
        let refused = await rename(to: refusedTitle, from: detail, alongside: list)
        await refused.finish()
        await list.waitUntil { $0.content?.contains { $0.title == renamed } == true }
        let rolledBack = list.title(of: 3) == renamed && detail.title(of: 3) == renamed
        renderer.note(refused.error.map { "refused: \($0.description)" } ?? "accepted")
        renderer.note("rolled back — \(both(list, detail))")

        await renderer.step("10. Cold start from the offline cache")
        await webservice.persistPendingValues()
        let cold = StoryScreen(webservice: offlineWebservice(in: directory), focus: 3)
        stories.holdNextList()
        let loading = cold.startLoading(resource: all)
        let fromDisk = await cold.waitUntil { $0.content != nil }?.isLoading == true
        renderer.note("a new webservice shows \(cold.summary) from disk while it revalidates")
        stories.answer()
        await loading.finish()
        let asked = stories.server.requests.last?.header("if-none-match") != nil
        let how = asked ? "with a conditional request" : "without a conditional request"
        renderer.note("revalidated \(how): \(cold.summary)")
        return Outcome(
            detailRequests: detailRequests,
            rolledBack: rolledBack,
            coldStartFromDisk: fromDisk,
            revalidatedConditionally: asked
        )
    }

    /// Whether a state of `states` shows `title` before the stream ends.
    private func shows(_ title: String, in states: AsyncStream<LoadingState<[Story]>>) async -> Bool
    {
        for await state in states
        where state.content?.contains(where: { $0.title == title }) == true {
            return true
        }
        return false
    }

    /// What the list shows of story 3, and what the detail shows.
    private func both(_ list: StoryScreen, _ detail: StoryScreen) -> String {
        "list: \"\(list.title(of: 3) ?? "-")\" · detail: \(detail.summary)"
    }

    private func offlineWebservice(in directory: URL) -> Webservice {
        Webservice(
            transport: transport,
            configuration: .init(
                persistentStore: DiskResourceStore(directory: directory),
                monitor: monitor
            )
        )
    }

    /// Renames story 3 to `title` from `detail`, showing it at once on every screen of
    /// the stories, and tells what `list` and `detail` showed then, before the server
    /// is let answer.
    private func rename(
        to title: String,
        from detail: StoryScreen,
        alongside list: StoryScreen
    ) async -> MutationTask<Story> {
        let streams = (list.states, detail.states)
        stories.holdNextRename()
        let mutation = Mutation(Story.rename(3, to: title, on: stories.baseURL))
            .optimistically(updating: Story.all(on: stories.baseURL)) { stories in
                if let index = stories.firstIndex(where: { $0.id == 3 }) {
                    stories[index].title = title
                }
            }
        let task: MutationTask<Story> = detail.startSending(mutation)
        let seen = [await shows(title, in: streams.0), await shows(title, in: streams.1)]
        let shown = seen.map { $0 ? "\"\(title)\"" : "-" }
        renderer.note("before the server answers — list: \(shown[0]) · detail: \(shown[1])")
        stories.answer()
        return task
    }
}
