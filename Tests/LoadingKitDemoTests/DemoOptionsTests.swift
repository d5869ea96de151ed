import Foundation
import Testing

@testable import loadingkit_demo

@Suite("loadingkit-demo's command line", .timeLimit(.minutes(1)))
struct DemoOptionsTests {
    @Test("a URL with a number of pages is read")
    func urlAndPages() throws {
        let options = try DemoOptions(arguments: ["--url", "https://example.com/a", "--pages", "2"])
        #expect(options.url == URL(string: "https://example.com/a"))
        #expect(options.pages == 2)
        #expect(!options.interactive)
    }

    @Test(
        "contradictory, repeated, unknown or malformed options are refused, saying why",
        arguments: [
            (["--pages", "2"], "--pages needs --url"),
            (["--interactive", "--url", "https://example.com"], "cannot be combined"),
            (["--url", "https://example.com", "-i"], "cannot be combined"),
            (["--url", "https://a.example", "--url", "https://b.example"], "--url is given twice"),
            (["-i", "--interactive"], "--interactive is given twice"),
            (["--interactive", "-v"], "--interactive draws the screen, --verbose prints lines"),
            (["--bogus"], "unknown option --bogus"),
            (["-x"], "unknown option -x"),
            (["bogus"], "unexpected argument \"bogus\""),
            (["--url"], "--url needs an http or https URL"),
            (["--url", "ftp://example.com"], "--url needs an http or https URL"),
            (["--url", "https://example.com", "--pages", "0"], "--pages needs a positive"),
            (["--url", "https://example.com", "--pages", "two"], "--pages needs a positive"),
        ] as [([String], String)]
    )
    func refused(arguments: [String], reason: String) {
        #expect {
            try DemoOptions(arguments: arguments)
        } throws: { error in
            (error as? DemoOptions.Failure)?.description.contains(reason) == true
        }
    }

    @Test("help is given whatever else the command line holds, if it can be read")
    func helpWins() throws {
        #expect(try DemoOptions(arguments: ["--pages", "2", "--help"]).help)
        #expect(throws: DemoOptions.Failure.self) { try DemoOptions(arguments: ["-h", "--bogus"]) }
    }

    @Test(
        "a refused command line writes the error and the synopsis to stderr, and exits 2",
        arguments: [
            ["--bogus"], ["bogus"], ["--url"], ["--url", "ftp://x"], ["--pages", "0"],
            ["--pages", "2"], ["--interactive", "--url", "https://example.com"],
            ["--interactive"],
        ]
    )
    @MainActor
    func refusedCommand(arguments: [String]) async {
        let output = BufferOutput()
        #expect(await DemoCommand.run(arguments: arguments, output: output) == 2)
        #expect(output.text.isEmpty)
        #expect(output.errorLines.first?.hasPrefix("error: ") == true)
        #expect(output.errorLines.count <= 2)
    }

    @Test("a refused command line ends with the synopsis")
    @MainActor
    func synopsisAfterError() async {
        let output = BufferOutput()
        _ = await DemoCommand.run(arguments: ["--bogus"], output: output)
        #expect(output.errorLines == ["error: unknown option --bogus", DemoOptions.synopsis])
    }

    @Test("--help writes the usage to stdout and exits 0")
    @MainActor
    func help() async {
        let output = BufferOutput()
        #expect(await DemoCommand.run(arguments: ["--help"], output: output) == 0)
        #expect(output.text == DemoOptions.usage + "\n")
        #expect(output.errors.isEmpty)
    }
}
