import Foundation
import LoadingKit

#if canImport(Glibc)
    import Glibc
#endif

/// `--interactive`: a person drives the screen with keys. Each key's notes replace the
/// last key's.
@MainActor
struct InteractiveSession {
    let feed: DemoFeedServer
    let renderer: TerminalRenderer
    let webservice: Webservice
    /// The story server whose live stories `l` drops and restores; none, no live key.
    var stories: DemoStoryServer?
    /// How many stories `r` publishes before it refreshes: one to four.
    var publishing: @MainActor () -> Int = { Int.random(in: 1...4) }

    static let help =
        "r publish, refresh · n next page · p previous page · f reload pages · "
        + "s server away/back · l live off/on · q quit"

    /// Plays `keys` until `q` or their end.
    func run(keys: some AsyncSequence<Character, Never>) async {
        let screen = FeedScreen(firstPage: feed.firstPage, webservice: webservice)
        let stats = DemoStats(feed: feed)
        screen.onChange = { [renderer] screen, change in
            stats.observe(screen.loadingState)
            renderer.progress(stats.line(for: screen))
            renderer.render(screen, change: change)
        }
        renderer.help = Self.help
        await renderer.step("interactive")
        if let delay = stats.delayNote {
            renderer.note(delay)
        }
        await screen.loadFirstPage()
        var live: LiveStories?
        if let stories {
            live = await LiveStories(server: stories, webservice: webservice)
        }
        var isServerAway = false
        for await key in keys {
            guard key != "q" else { return }
            if "rnpfsl".contains(key) {
                renderer.clearNotes()
            }
            switch key {
            case "r":
                let published = publishing()
                feed.publish(published)
                let news = DemoFormat.count(published, "new story", plural: "new stories")
                renderer.note("\(news) published on the server; refreshing")
                let shown = Set(screen.loadingState.content?.map(\.id) ?? [])
                await screen.refresh()
                renderer.replaceNotes(with: Self.refreshed(news, on: screen, shown: shown))
            case "n" where !screen.pagination.hasMorePages:
                renderer.note("the end of the feed: there is no page after these")
            case "n":
                await screen.loadNextPage()
            case "p" where !screen.pagination.hasPreviousPages:
                renderer.note("the head of the feed: there is no page before these")
            case "p":
                await screen.loadPreviousPage()
            case "f":
                let pages = screen.pagination.pagesLoaded
                renderer.note(
                    pages == 1
                        ? "reloading the page held"
                        : "reloading the \(pages) pages held, one request each"
                )
                await screen.loadFirstPage(policy: .force)
                renderer.replaceNotes(with: Self.reloaded(pages, on: screen))
            case "s":
                isServerAway.toggle()
                if isServerAway {
                    feed.server.goAway()
                    renderer.note("the server went away: loads fail, what is shown stays")
                } else {
                    do {
                        try feed.server.comeBack()
                        feed.recover()
                        renderer.note("the server is back: every page answers")
                    } catch {
                        renderer.note("the server could not come back: \(error)")
                    }
                }
            case "l":
                if let live {
                    await live.toggle(renderer: renderer)
                } else {
                    renderer.note("no live stream in this session")
                }
            default:
                continue
            }
        }
    }

    /// What a refresh after `news` were published came to: the stories it brought to
    /// the head — those marked new, published before a refresh that failed included —,
    /// or the pages held reloaded in place when the window is away from the head.
    private static func refreshed(
        _ news: String,
        on screen: FeedScreen,
        shown: Set<FeedItem.ID>
    ) -> String {
        if let error = screen.loadingState.error {
            return "\(news) on the server, but the refresh could not get them: "
                + "\(DemoFormat.reason(error)); the rows shown stay"
        }
        if screen.pagination.hasPreviousPages {
            let held = DemoFormat.count(screen.pagination.pagesLoaded, "page")
            return "\(news) published on the server; refreshed the \(held) held in place: "
                + "the new stories are above them, p pages back to the head"
        }
        let brought = (screen.loadingState.content ?? []).count { !shown.contains($0.id) }
        guard brought > 0 else {
            return "\(news) published on the server; refreshed: none is new here"
        }
        let stories = DemoFormat.count(brought, "new story", plural: "new stories")
        return "\(news) published on the server; refreshed: \(stories) at the head, marked + new"
    }

    /// What a reload of the `held` pages came to: its pages, one request each — more
    /// when stories published at the head pushed the rows shown further down.
    private static func reloaded(_ held: Int, on screen: FeedScreen) -> String {
        if let error = screen.loadingState.error {
            return "the reload failed: \(DemoFormat.reason(error)), the rows shown stay"
        }
        let pages = screen.pagination.pagesLoaded
        let reloaded = DemoFormat.count(pages, "page")
        guard pages > held else { return "reloaded \(reloaded), one request each" }
        return "reloaded \(reloaded), one request each: stories published at the head "
            + "pushed the rows shown past the \(DemoFormat.count(held, "page")) held"
    }
}

/// Standard input in raw mode, read key by key off the main actor.
final class RawTerminal: Sendable {
    private let saved: termios?

    init() {
        var attributes = termios()
        guard tcgetattr(STDIN_FILENO, &attributes) == 0 else {
            saved = nil
            return
        }
        saved = attributes
        var raw = attributes
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        tcsetattr(STDIN_FILENO, TCSANOW, &raw)
    }

    /// Puts the terminal back as it was.
    func restore() {
        guard var saved else { return }
        tcsetattr(STDIN_FILENO, TCSANOW, &saved)
    }

    /// The keys typed, as characters; ends at end of input.
    func keys() -> AsyncStream<Character> {
        AsyncStream { continuation in
            Thread.detachNewThread {
                var byte: UInt8 = 0
                while read(STDIN_FILENO, &byte, 1) == 1 {
                    continuation.yield(Character(UnicodeScalar(byte)))
                }
                continuation.finish()
            }
        }
    }
}
