import Foundation
import LoadingKit

extension ScriptedSession {
    /// Publishes new stories, pulls the screen past the threshold and lets go, then
    /// tells what the refresh brought.
    func pullToRefresh(_ screen: FeedScreen) async {
        let published = 5
        feed.publish(published)
        let news = DemoFormat.count(published, "new story", plural: "new stories")
        renderer.note("\(news) published on the server")
        let threshold = 60.0
        let pull = PullToRefresh(threshold: threshold, refreshing: screen)
        for distance in [20.0, 45, 75] {
            pull.pulled(to: distance)
            let beyond = pull.isBeyondThreshold ? ", beyond it: releasing refreshes" : ""
            renderer.note(
                "pulled \(Int(distance)) pt: \(DemoFormat.percent(distance / threshold)) "
                    + "of the \(Int(threshold)) pt threshold\(beyond)"
            )
        }
        let shown = screen.loadingState.content?.count ?? 0
        await pull.released()?.value
        let added = (screen.loadingState.content?.count ?? 0) - shown
        renderer.note(
            "refreshed: \(DemoFormat.count(added, "new story", plural: "new stories")) "
                + "at the head, the \(shown) shown kept"
        )
    }

    /// Loads the next page until there is none, retrying a page that failed once a
    /// person could have seen it fail, then tells how many pages it took.
    func pageToTheEnd(_ screen: FeedScreen) async {
        var loaded = screen.pagination.pagesLoaded
        var retried = 0
        while screen.pagination.hasMorePages {
            await screen.loadNextPage()
            if screen.pagination.pageError != nil {
                retried += 1
                // The status line says the page failed, then that it is retried.
                await renderer.pause()
            } else {
                loaded += 1
            }
        }
        renderer.note(
            "end of the feed: \(DemoFormat.count(loaded, "page")) loaded, "
                + "\(screen.pagination.pagesLoaded) held; "
                + "\(DemoFormat.count(retried, "failed page")) retried"
        )
    }
}
