import Foundation
import LoadingKit

/// What a `ModelFeed` did, kept apart so that it outlives the feed.
@MainActor
final class ModelLog {
    var violations: [String] = []
    var isAlive = true
    var configured = 0
    /// Configures since the last state change: each applied value configures once,
    /// right before the state records it.
    private var configurePending = 0
    private var lastIDs: [Int]?

    func configure() {
        if !isAlive { violations.append("configure called after release") }
        configured += 1
        configurePending += 1
    }

    func stateChanged(to content: [Post]?) {
        if !isAlive { violations.append("state changed after release") }
        let ids = content?.map(\.id)
        // Content only changes with a configure, or is cleared when a load of another
        // resource starts.
        if ids != lastIDs, ids != nil, configurePending == 0 {
            violations.append("content changed without configure")
        }
        if configurePending > 1 {
            violations.append("configure called \(configurePending) times for one change")
        }
        configurePending = 0
        lastIDs = ids
    }
}

/// The conformer of the model test: refreshable and paginated, ten posts a page, at
/// most three pages held.
@MainActor
final class ModelFeed: Paginating, Refreshable {
    let loading = LoadingCore<[Post]>()
    let webservice: Webservice
    let log: ModelLog
    let configuresEmptyValues = true
    let maxPages: Int? = 3

    init(webservice: Webservice, log: ModelLog) {
        self.webservice = webservice
        self.log = log
    }

    func configure(value: [Post]) {
        log.configure()
    }

    func loadingStateDidChange(
        from oldState: LoadingState<[Post]>,
        to newState: LoadingState<[Post]>
    ) {
        log.stateChanged(to: newState.content)
    }

    func resource(forPage page: Int?) -> Resource<Page<Post, Int>> {
        .pageNumber(url: URL(string: "https://model.test/posts")!, page: page, size: 10)
    }

    func refreshResource(newerThan first: Post?) -> Resource<[Post]> {
        Resource(url: URL(string: "https://model.test/posts?head=1")!)
    }
}
