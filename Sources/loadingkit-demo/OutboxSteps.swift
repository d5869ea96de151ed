import Foundation
import LoadingKit

/// The outbox step of the scripted session: the story server goes away, three edits
/// are made and shown at once, kept on disk; the server comes back and the edits reach
/// it in the order they were made, each once.
@MainActor
struct OutboxSteps {
    let stories: DemoStoryServer
    let renderer: any DemoRenderer
    let transport: any Transport
    /// Who hears the events of the step's webservice, with `--verbose`.
    let monitor: (any LoadingMonitor)?

    /// What the step showed.
    struct Outcome: Equatable {
        /// Edits made while the server was away.
        let made: Int
        /// Those shown on the list before the server came back.
        let shownWhileAway: Int
        /// Those the server applied once it was back, each once.
        let confirmed: Int
    }

    /// The stories edited, and their new titles.
    private static let edits = [
        (1, "Story 1, offline"), (2, "Story 2, offline"), (4, "Story 4, offline"),
    ]

    func run() async -> Outcome {
        let directory = FileManager.default.temporaryDirectory
            .appending(path: "loadingkit-demo-outbox-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let outbox = Outbox(directory: directory)
        let webservice = Webservice(
            transport: transport,
            configuration: .init(monitor: monitor, outbox: outbox)
        )
        let all = Story.all(on: stories.baseURL)
        let list = StoryScreen(webservice: webservice)

        await renderer.step("11. Edits while the server is away")
        await list.load(resource: all)
        stories.server.goAway()
        renderer.note("the server went away")
        var shown = 0
        for (id, title) in Self.edits {
            let queued = await edit(id, to: title, from: list)
            if list.title(of: id) == title { shown += 1 }
            renderer.note(
                queued
                    ? "edited story \(id): shown at once, on disk, waiting for the server"
                    : "edited story \(id): not queued"
            )
        }
        renderer.note("\(outbox.pendingWrites.count) edits wait in the outbox")

        let applied = stories.keyedRenames.applied
        try? stories.server.comeBack()
        await outbox.resume()
        await list.load(resource: all)  // joins the reload the confirmations began
        let keyed = stories.keyedRenames
        let confirmed = keyed.repeated == 0 ? keyed.applied - applied : 0
        renderer.note(
            "the server is back: \(confirmed) of \(Self.edits.count) edits confirmed in order, "
                + "\(outbox.pendingWrites.count) left"
        )
        renderer.note("list: \(list.summary)")
        return Outcome(made: Self.edits.count, shownWhileAway: shown, confirmed: confirmed)
    }

    /// Renames story `id` to `title` from `list`, kept until the server has it;
    /// whether it was queued for the server.
    private func edit(_ id: Int, to title: String, from list: StoryScreen) async -> Bool {
        let mutation = Mutation(Story.rename(id, to: title, on: stories.baseURL))
            .optimistically(updating: Story.all(on: stories.baseURL)) { stories in
                if let index = stories.firstIndex(where: { $0.id == id }) {
                    stories[index].title = title
                }
            }
            .keptUntilSent()
        do {
            _ = try await list.send(mutation)
            return false
        } catch .webservice(.queued) {
            return true
        } catch {
            return false
        }
    }
}
