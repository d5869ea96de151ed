import Foundation
import LoadingKit

/// A screen of messages accumulated from a live stream, each event's data a message.
@MainActor
final class MessagesScreen: Loading {
    let loading = LoadingCore<[String]>()
    let webservice: Webservice
    private(set) var configured: [[String]] = []

    init(webservice: Webservice) {
        self.webservice = webservice
    }

    func configure(value: [String]) {
        configured.append(value)
    }

    /// The messages shown.
    var messages: [String]? { loadingState.content }

    /// Follows `live`, each event's data appended.
    func follow(_ live: LiveResource<ServerSentEvent>, restart: LiveReload = .reset) {
        follow(live, startingWith: [], restart: restart) { messages, event in
            messages.append(event.data)
        }
    }
}

extension Loading {
    /// Returns once the state satisfies `condition` — or once the calling task is
    /// cancelled.
    func waitForState(
        _ condition: (LoadingState<ResourceType>) -> Bool
    ) async {
        for await state in states where condition(state) { break }
    }
}
