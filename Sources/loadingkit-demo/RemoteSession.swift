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

    /// Loads up to `pages` pages; returns the one-line error of a failed first load.
    func run() async -> String? {
        let screen = FeedScreen(firstPage: url, webservice: webservice)
        screen.onChange = { [renderer] screen, change in
            renderer.render(screen.loadingState, pagination: screen.pagination, change: change)
        }
        renderer.step("Loading \(url.absoluteString)")
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
        if let pageError = screen.pagination.pageError {
            output.write("(stopped at a failed page: \(pageError))\n")
        }
        return nil
    }
}
