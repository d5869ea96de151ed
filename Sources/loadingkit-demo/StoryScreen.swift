import Foundation
import LoadingKit

/// A screen of the stories: the list, or the detail of one story read from the same
/// stored value — so opening the detail sends nothing, and a rename shows on both.
@MainActor
final class StoryScreen: Loading {
    let loading = LoadingCore<[Story]>()
    let webservice: Webservice
    /// The story the detail shows; `nil` for the list.
    let focus: Int?

    init(webservice: Webservice, focus: Int? = nil) {
        self.webservice = webservice
        self.focus = focus
    }

    func configure(value: [Story]) {}

    /// What the screen shows: the focused story's title, or the list's, each quoted.
    var summary: String {
        guard let stories = loadingState.content else { return "nothing yet" }
        guard let focus else { return stories.map { "\"\($0.title)\"" }.joined(separator: ", ") }
        return stories.first { $0.id == focus }.map { "\"\($0.title)\"" } ?? "gone"
    }

    /// The title of story `id`, as shown.
    func title(of id: Int) -> String? {
        loadingState.content?.first { $0.id == id }?.title
    }

    /// Waits until the state satisfies `condition`, and returns that state.
    @discardableResult
    func waitUntil(
        _ condition: (LoadingState<[Story]>) -> Bool
    ) async -> LoadingState<[Story]>? {
        for await state in states where condition(state) {
            return state
        }
        return nil
    }
}
