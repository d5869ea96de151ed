import Foundation
import LoadingKit

/// The demo's entry point, callable in process: returns the exit status.
@MainActor
enum DemoCommand {
    static func run(arguments: [String], output: any DemoOutput) async -> Int32 {
        let options: DemoOptions
        do {
            options = try DemoOptions(arguments: arguments)
        } catch {
            output.write("error: \(error)\n")
            return 2
        }
        if options.help {
            output.write(DemoOptions.usage + "\n")
            return 0
        }
        let transport = URLSessionTransport(configuration: .init(timeout: 10))
        let webservice = Webservice(transport: transport)
        let renderer: any DemoRenderer =
            output.isTerminal ? TerminalRenderer(output: output) : PlainRenderer(output: output)
        defer { renderer.finish() }

        if let url = options.url {
            let remote = RemoteSession(
                url: url,
                pages: options.pages,
                renderer: renderer,
                output: output,
                webservice: webservice
            )
            guard let failure = await remote.run() else { return 0 }
            renderer.finish()
            output.write("error: \(failure)\n")
            return 1
        }

        let feed: DemoFeedServer
        let stories: DemoStoryServer
        do {
            let delay: Duration = output.isTerminal ? .milliseconds(350) : .zero
            feed = try DemoFeedServer(delay: delay)
            stories = try DemoStoryServer(delay: delay)
        } catch {
            output.write("error: could not start the loopback server: \(error)\n")
            return 1
        }
        defer {
            feed.server.stop()
            stories.server.stop()
        }
        if options.interactive, let terminal = renderer as? TerminalRenderer {
            await InteractiveSession(feed: feed, renderer: terminal, webservice: webservice).run()
            return 0
        }
        if options.interactive {
            output.write("error: --interactive needs a terminal\n")
            return 2
        }
        let summary = await ScriptedSession(
            feed: feed,
            stories: stories,
            renderer: renderer,
            webservice: webservice
        ).run()
        let shared =
            summary.sharing
            == .init(detailRequests: 0, rolledBack: true, coldStartFromDisk: true)
        return summary.items == summary.uniqueItems && summary.emptyPlaceholder && shared ? 0 : 1
    }
}
