import Foundation
import LoadingKit

/// The scripted session against the embedded feed and story servers: every state a
/// screen goes through, in order, then screens sharing stored values, edits made while
/// the server is away, a token that expires, and live stories.
@MainActor
struct ScriptedSession {
    let feed: DemoFeedServer
    let stories: DemoStoryServer
    let renderer: any DemoRenderer
    let webservice: Webservice

    func run() async -> Summary {
        let stats = DemoStats(feed: feed)
        let screen = FeedScreen(firstPage: feed.firstPage, webservice: webservice)
        screen.onChange = { [renderer] screen, change in
            stats.observe(screen.loadingState)
            renderer.progress(stats.line(for: screen))
            renderer.render(screen, change: change)
        }

        await renderer.step("1. First load")
        if let delay = stats.delayNote {
            renderer.note(delay)
        }
        await screen.loadFirstPage()

        await renderer.step("2. Background reload")
        let notModified = feed.notModifiedCount
        await screen.loadFirstPage(policy: .background)
        let confirmed = DemoFormat.count(feed.notModifiedCount - notModified, "request")
        renderer.note("server answered 304 Not Modified to \(confirmed); content kept")

        await renderer.step("3. Pull to refresh")
        await pullToRefresh(screen)

        await renderer.step("4. Pages to the end, four pages held")
        await pageToTheEnd(screen)

        await renderer.step("5. Back toward the head")
        let confirmedBefore = feed.notModifiedCount
        for _ in 0..<2 {
            await screen.loadPreviousPage()
        }
        renderer.note(
            "2 pages loaded back: the server answered 304 Not Modified to "
                + "\(feed.notModifiedCount - confirmedBefore), whose stored pages were shown"
        )

        renderer.progress("")  // the main feed's counts, not shown over another screen
        await renderer.step("6. Empty filter")
        renderer.note(
            "a filter no story matches, on a screen of its own; the main feed is left as it is"
        )
        let filtered = FeedScreen(firstPage: feed.emptyFilter, webservice: webservice)
        filtered.onChange = { [renderer] screen, change in
            renderer.render(screen, change: change)
        }
        await filtered.loadFirstPage()

        let sharing = await SharingSteps(
            stories: stories,
            renderer: renderer,
            transport: webservice.transport,
            monitor: webservice.configuration.monitor
        ).run()
        let offlineEdits = await OutboxSteps(
            stories: stories,
            renderer: renderer,
            transport: webservice.transport,
            monitor: webservice.configuration.monitor
        ).run()
        let credentials = await AccountSteps(
            renderer: renderer,
            transport: webservice.transport,
            monitor: webservice.configuration.monitor
        ).run()

        let live = await LiveSteps(
            stories: stories,
            renderer: renderer,
            transport: webservice.transport,
            monitor: webservice.configuration.monitor
        ).run()

        let items = screen.loadingState.content ?? []
        let summary = Summary(
            pages: screen.pagination.pagesLoaded,
            items: items.count,
            uniqueItems: Set(items.map(\.id)).count,
            requests: stats.requests,
            notModified: stats.notModified,
            emptyPlaceholder: filtered.loadingState.placeholder == .empty,
            sharing: sharing,
            offlineEdits: offlineEdits,
            credentials: credentials,
            live: live
        )
        await renderer.step("Summary")
        for line in stats.summary(for: screen) + summary.notes {
            renderer.note(line)
        }
        return summary
    }
}
