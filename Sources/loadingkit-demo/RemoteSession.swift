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

    /// Loads up to `pages` pages and prints their items; returns the one-line error of a
    /// failed first load, or of the page that failed after the items before it.
    func run() async -> String? {
        let screen = FeedScreen(firstPage: url, webservice: webservice)
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
        if screen.pagination.pageError == nil, screen.pagination.hasMorePages {
            output.writeError(
                "stopped after \(DemoFormat.count(pages, "page")); the API has more (--pages N)\n"
            )
        }
        return screen.pagination.pageError.map { "stopped at a failed page: \($0)" }
    }
}
