import Foundation
import LoadingKit

/// The demo's entry point, callable in process: returns the exit status — 0 when all
/// went as told, 1 when the session or the URL failed, 2 for a command line refused.
/// Errors and usage after an error go to standard error; `--help` to standard output.
@MainActor
enum DemoCommand {
    static func run(arguments: [String], output: any DemoOutput) async -> Int32 {
        let options: DemoOptions
        do {
            options = try DemoOptions(arguments: arguments)
        } catch {
            output.writeError("error: \(error)\n\(DemoOptions.synopsis)\n")
            return 2
        }
        if options.help {
            output.write(DemoOptions.usage + "\n")
            return 0
        }
        if options.interactive, !output.isTerminal || isatty(STDIN_FILENO) != 1 {
            output.writeError("error: --interactive needs a terminal to read keys and draw in\n")
            return 2
        }
        let transport = URLSessionTransport(configuration: .init(timeout: 10))
        let events = output.eventLine
        let printer =
            options.verbose
            ? LoadingEventPrinter(showsQueryValues: true) { events("  · \($0)") } : nil
        let refusals = LinkRefusals(forwardingTo: printer)
        let webservice = Webservice(transport: transport, configuration: .init(monitor: refusals))
        // Event lines would tear a redrawn screen: with them, the session is told in lines.
        let renderer: any DemoRenderer
        if output.isTerminal && !options.verbose {
            let terminal = TerminalRenderer(output: output)
            terminal.followResizes()
            renderer = terminal
        } else {
            renderer = PlainRenderer(output: output)
        }
        defer { renderer.finish() }
        let keyboard = options.interactive ? RawTerminal() : nil
        defer { keyboard?.restore() }
        let interruption = output.isTerminal ? Interruption(restoring: keyboard) : nil
        defer { interruption?.cancel() }

        if let url = options.url {
            let remote = RemoteSession(
                url: url,
                pages: options.pages,
                renderer: renderer,
                output: output,
                webservice: webservice,
                refusals: refusals
            )
            guard let failure = await remote.run() else { return 0 }
            renderer.finish()
            output.writeError("error: \(failure)\n")
            return 1
        }

        let feed: DemoFeedServer
        let stories: DemoStoryServer
        do {
            let delay: Duration = renderer is TerminalRenderer ? .milliseconds(350) : .zero
            feed = try DemoFeedServer(delay: delay)
            stories = try DemoStoryServer(delay: delay)
        } catch {
            output.writeError("error: could not start the loopback server: \(error)\n")
            return 1
        }
        defer {
            feed.server.stop()
            stories.server.stop()
        }
        if let keyboard, let terminal = renderer as? TerminalRenderer {
            await InteractiveSession(
                feed: feed,
                renderer: terminal,
                webservice: webservice,
                stories: stories
            )
            .run(keys: keyboard.keys())
            return 0
        }
        let summary = await ScriptedSession(
            feed: feed,
            stories: stories,
            renderer: renderer,
            webservice: webservice
        ).run()
        if let problem = summary.problem {
            renderer.finish()
            output.writeError("error: the session did not end as scripted: \(problem)\n")
            return 1
        }
        return 0
    }
}
