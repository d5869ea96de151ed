import Foundation
import LoadingKit

#if canImport(Glibc)
    import Glibc
#endif

/// `--interactive`: a person drives the screen with keys.
@MainActor
struct InteractiveSession {
    let feed: DemoFeedServer
    let renderer: TerminalRenderer
    let webservice: Webservice

    func run() async {
        let screen = FeedScreen(firstPage: feed.firstPage, webservice: webservice)
        let stats = DemoStats(feed: feed)
        screen.onChange = { [renderer] screen, change in
            stats.observe(screen.loadingState)
            renderer.progress(stats.line(for: screen))
            renderer.render(screen.loadingState, pagination: screen.pagination, change: change)
        }
        renderer.help =
            "r refresh (after new stories) · n next · p previous · f force reload · "
            + "s server away/back · q quit"
        await renderer.step("interactive")
        await screen.loadFirstPage()
        var isServerAway = false
        let terminal = RawTerminal()
        defer { terminal.restore() }
        for await key in terminal.keys() {
            switch key {
            case "r":
                let published = Int.random(in: 1...4)
                feed.publish(published)
                let news = DemoFormat.count(published, "new story", plural: "new stories")
                renderer.note("\(news) published on the server; refreshing")
                await screen.refresh()
            case "n":
                await screen.loadNextPage()
            case "p":
                await screen.loadPreviousPage()
            case "f":
                await screen.loadFirstPage(policy: .force)
            case "s":
                isServerAway.toggle()
                if isServerAway {
                    feed.server.goAway()
                    renderer.note("the server went away: loads fail, what is shown stays")
                } else {
                    do {
                        try feed.server.comeBack()
                        renderer.note("the server is back")
                    } catch {
                        renderer.note("the server could not come back: \(error)")
                    }
                }
            case "q":
                return
            default:
                continue
            }
        }
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
