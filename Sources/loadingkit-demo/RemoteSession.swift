import Foundation
import LoadingKit

/// `--url`: the same screen against a real API that paginates with `Link` headers.
@MainActor
struct RemoteSession {
    let url: URL
    let pages: Int
    let renderer: any DemoRenderer
    let output: any DemoOutput
    let webservice: Webservice
    /// The `Link` targets the kit refused to follow, and the values it could not read.
    let refusals: LinkRefusals

    /// Loads up to `pages` pages and prints their items; returns the one-line error of a
    /// failed first load, or of the page that failed after the items before it.
    func run() async -> String? {
        // Every page loaded is printed: no window drops any.
        let screen = FeedScreen(firstPage: url, webservice: webservice, maxPages: nil)
        screen.onChange = { [renderer] screen, change in
            renderer.render(screen, change: change)
        }
        await renderer.step("Loading \(url.absoluteString)")
        await screen.loadFirstPage()
        if let error = screen.loadingState.error {
            return error.description
        }
        while screen.pagination.hasMorePages, screen.pagination.pagesLoaded < pages,
            screen.pagination.pageError == nil
        {
            await screen.loadNextPage()
        }
        renderer.finish()
        for item in screen.loadingState.content ?? [] {
            output.write("\(item.id)\t\(item.title)\n")
        }
        if screen.pagination.pageError == nil {
            output.writeError(ending(of: screen) + "\n")
        }
        return screen.pagination.pageError.map { "stopped at a failed page: \($0)" }
    }

    /// How the list ended, in a line: the pages and items, the total the API told,
    /// and why there were no more.
    private func ending(of screen: FeedScreen) -> String {
        let pagination = screen.pagination
        let items = screen.loadingState.content?.count ?? 0
        let counted =
            pagination.totalCount.map { "\(items) of \($0) items" }
            ?? DemoFormat.count(items, "item")
        let loaded = "\(DemoFormat.count(pagination.pagesLoaded, "page")), \(counted)"
        if pagination.hasMorePages {
            // The API's `last` link, when it gave one, says how far the list goes.
            let last = pagination.lastCursor.map {
                ", up to " + DemoFormat.page($0, otherwise: $0.absoluteString)
            }
            return "\(loaded); the API has more (--pages N)\(last ?? "")"
        }
        if let origin = refusals.firstRefusedOrigin {
            return "\(loaded); the next page is on another origin, \(origin), not followed"
        }
        let malformed = refusals.malformedValues
        guard malformed > 0 else {
            return "\(loaded); the end of the list"
        }
        let values = malformed == 1 ? "a value" : "\(malformed) values"
        return "\(loaded); the Link header had \(values) that could not be read: "
            + "the list may go on"
    }
}
