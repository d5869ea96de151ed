import Foundation
import LoadingKit
import LoadingKitTesting
import Testing

@testable import loadingkit_demo

@MainActor
@Suite("loadingkit-demo", .timeLimit(.minutes(1)))
struct DemoTests {
    @Test("the scripted session goes through every state, in order, and ends with exact counts")
    func scriptedSession() async throws {
        let output = BufferOutput()
        let feed = try DemoFeedServer(delay: .zero)
        let stories = try DemoStoryServer(delay: .zero)
        defer {
            feed.server.stop()
            stories.server.stop()
        }
        let session = ScriptedSession(
            feed: feed,
            stories: stories,
            renderer: PlainRenderer(output: output),
            webservice: Webservice(
                transport: URLSessionTransport(configuration: .init(timeout: 10))
            )
        )
        let summary = await session.run()
        #expect(
            summary
                == .init(
                    pages: 4,
                    items: 120,
                    uniqueItems: 120,
                    requests: 14,
                    notModified: 3,
                    emptyPlaceholder: true,
                    sharing: .init(
                        detailRequests: 0,
                        rolledBack: true,
                        coldStartFromDisk: true,
                        revalidatedConditionally: true
                    ),
                    offlineEdits: .init(made: 3, shownWhileAway: 3, confirmed: 3),
                    credentials: .init(renewals: 1, loaded: 5),
                    live: .init(published: 4, shown: 4, resumedAfter: "2")
                )
        )
        #expect(output.text.hasPrefix("== 1. First load\n"))  // no blank line before it
        // Every step --help tells, and only those.
        #expect(DemoOptions.usage.contains("in thirteen steps"))
        #expect(output.lines.count { $0.wholeMatch(of: /== \d+\. .+/) != nil } == 13)
        let expected = [
            "== 1. First load",
            "state: loading · placeholder: loading",
            "state: idle · placeholder: content · items 30 · pages 1 · more",
            "rows: replaced, 30 items",
            "== 2. Background reload",
            "state: reloading · placeholder: content · items 30 · pages 1 · more",
            "state: idle · placeholder: content · items 30 · pages 1 · more",
            "server answered 304 Not Modified to 1 request; content kept",
            "== 3. Pull to refresh",
            "5 new stories published on the server",
            "pulled 20 pt: 33% of the 60 pt threshold",
            "pulled 45 pt: 75% of the 60 pt threshold",
            "pulled 75 pt: 125% of the 60 pt threshold, beyond it: releasing refreshes",
            "state: refreshing · placeholder: content · items 30 · pages 1 · more",
            "state: idle · placeholder: content · items 35 · pages 1 · more",
            "rows 1–5 inserted: newly published (Story 245, Story 244, Story 243…)",
            "refreshed: 5 new stories at the head, the 30 shown kept",
            "== 4. Pages to the end, four pages held",
            "rows 36–60 appended: the next page (Story 210 … Story 186)",
            "rows 61–90 appended: the next page (Story 185 … Story 156)",
            "rows 121–150 appended: the next page (Story 125 … Story 96)",
            "rows 1–30 dropped from memory",
            "rows 121–125 appended: the next page (Story 5 … Story 1)",
            "rows 1–30 dropped from memory",
            "end of the feed: 9 pages loaded, 4 held; 1 failed page retried",
            "== 5. Back toward the head",
            "state: loading previous page · placeholder: content · items 95 · pages 4 · earlier · end",
            "rows 1–30 inserted: the previous page, loaded back (Story 125, Story 124, Story 123…)",
            "rows 121–125 dropped from memory",
            "rows 1–30 inserted: the previous page, loaded back (Story 155, Story 154, Story 153…)",
            "rows 121–150 dropped from memory",
            "2 pages loaded back: the server answered 304 Not Modified to 2, whose stored pages were shown",
            "== 6. Empty filter",
            "a filter no story matches, on a screen of its own; the main feed is left as it is",
            "state: idle · placeholder: empty · items 0 · pages 1 · end",
            "== 7. A list and a detail sharing one stored value",
            "list: \"Story 1\", \"Story 2\", \"Story 3\", \"Story 4\", \"Story 5\" · 1 request",
            "detail of story 3: \"Story 3\" shown at once, 0 requests sent",
            "== 8. An optimistic rename",
            "before the server answers — list: \"Story 3, renamed\" · detail: \"Story 3, renamed\"",
            "server accepted; both reloaded with one request: \"Story 3, renamed\"",
            "== 9. A rename the server refuses",
            "before the server answers — list: \"Story 3, refused\" · detail: \"Story 3, refused\"",
            "rolled back — list: \"Story 3, renamed\" · detail: \"Story 3, renamed\"",
            "== 10. Cold start from the offline cache",
            "a new webservice shows \"Story 3, renamed\" from disk while it revalidates",
            "revalidated with a conditional request: \"Story 3, renamed\"",
            "== 11. Edits while the server is away",
            "the server went away",
            "edited story 1: shown at once, on disk, waiting for the server",
            "edited story 2: shown at once, on disk, waiting for the server",
            "edited story 4: shown at once, on disk, waiting for the server",
            "3 edits wait in the outbox",
            "the server is back: 3 of 3 edits confirmed in order, 0 left",
            "list: \"Story 1, offline\", \"Story 2, offline\", \"Story 3, renamed\", \"Story 4, offline\", \"Story 5\"",
            "== 12. An expired token, renewed once",
            "signed in as a reader: 5 of 5 items loaded",
            "the server expired the token; five screens load at once",
            "1 renewal in all for the 5 loads that found the token expired; 5 of 5 loaded with the new token",
            "== 13. Live stories",
            "the list follows the server's live stories: connected",
            "2 stories published: at the head of the list as they came",
            "the server dropped the stream mid-event: reconnecting in 300.00 ms, after event 2",
            "2 more published while the stream was down",
            "reconnected with Last-Event-ID 2: 4 live stories shown, 4 of them unique",
            "== Summary",
            "main feed: 120 of 245 stories held in 4 pages, none twice",
            "filter: nothing matched, and the empty placeholder showed",
            "sharing: the detail showed the list's story 3 with 0 requests",
            "renames: one shown at once on both screens and accepted; one refused and rolled back on both",
            "cold start: shown from disk, revalidated with a conditional request",
            "offline edits: 3 made while the server was away, 3 shown at once, 3 confirmed on its return",
            "credentials: the token expired under 5 loads: 1 renewal, 5 loaded with the new one",
            "live: 4 stories pushed, 4 shown once each; the dropped stream resumed after event 2",
        ]
        let lines = output.lines
        var cursor = lines.startIndex
        for line in expected {
            let found = lines[cursor...].firstIndex(of: line)
            #expect(found != nil, "missing, or out of order: \(line)")
            cursor = found.map { $0 + 1 } ?? cursor
        }
        #expect(lines.contains { $0.hasSuffix(" · page 3 failed: status 503") })
        #expect(lines.contains { $0.hasSuffix(" · retrying page 3") })
        #expect(lines.contains { $0.hasPrefix("refused: Bad status 409") })
        #expect(lines.contains { $0.hasPrefix("requests: 14 for the main feed, 3 answered 304") })
        // Rows are counted from 1, in words: no Swift range, no raw Bool.
        #expect(!lines.contains { $0.contains("..<") || $0.contains("true") })
        // The session sent exactly: the list, the first rename, the reload after it,
        // the refused rename, and the cold start's conditional request; then the list,
        // the three edits once the server was back, and the reload after them; then the
        // list the live step shows, and its two connections to the live stories — each
        // opened on Linux by an OPTIONS, so that the stream is not its first transfer.
        #if canImport(FoundationNetworking)
            #expect(stories.requestCount == 15)
        #else
            #expect(stories.requestCount == 13)
        #endif
        #expect(!output.text.contains("\u{1B}["))
    }

    @Test("--verbose prints what the kit did and decided, query values shown, no header value")
    func verbose() async throws {
        let output = BufferOutput()
        let status = await DemoCommand.run(arguments: ["--verbose"], output: output)
        #expect(status == 0)
        let events = output.events.withLock { $0 }
        #expect(
            events.contains { $0.hasPrefix("  · → GET http://127.0.0.1:") && $0.contains("page=2") }
        )
        #expect(events.contains { $0.hasPrefix("  · ← 200 GET ") })
        #expect(events.contains { $0.contains("not modified: the stored value stands") })
        #expect(events.contains { $0.hasPrefix("  · [StoryScreen] nothing stored for GET ") })
        #expect(events.contains { $0.hasPrefix("  · [StoryScreen] stored value shown at once") })
        #expect(events.contains { $0.hasPrefix("  · [StoryScreen] skipped GET ") })
        #expect(events.contains { $0.hasPrefix("  · ✗ Bad status ") })
        #expect(!events.contains { $0.contains("If-None-Match") || $0.contains("ETag") })
        // The session itself is told as without --verbose.
        #expect(
            output.lines.contains { $0.hasPrefix("requests: 14 for the main feed, 3 answered 304") }
        )
    }

    @Test("with no arguments and no terminal it plays the session and succeeds")
    func defaultRun() async throws {
        let output = BufferOutput()
        let status = await DemoCommand.run(arguments: [], output: output)
        #expect(status == 0, "\(output.lines.suffix(20).joined(separator: "\n"))")
        // The main feed's requests only, the filter screen's left out; the time per
        // request as it is, there being no artificial delay without a terminal.
        let requests = output.lines.first { $0.hasPrefix("requests: ") }
        #expect(requests?.hasPrefix("requests: 14 for the main feed, 3 answered 304 ") == true)
        #expect(requests?.hasSuffix(" ms/request") == true)
    }

    @Test("an unreachable --url ends with a one-line error and a non-zero exit")
    func unreachableURL() async throws {
        let refusing = try RefusingPort()
        let url = URL(string: "http://127.0.0.1:\(refusing.port)/issues")!
        let output = BufferOutput()
        #expect(
            await DemoCommand.run(arguments: ["--url", url.absoluteString], output: output) == 1
        )
        let last = try #require(output.errorLines.last)
        #expect(last.hasPrefix("error: Transport failure for GET \(url.absoluteString)"))
        #expect(output.errorLines.count == 1)
        #expect(!output.text.contains("error:"))
    }

    @Test(
        "a reply that is not a JSON array ends with a one-line error",
        arguments: ["<html>Welcome</html>", #"{"message":"not a list"}"#]
    )
    func badReply(body: String) async throws {
        let server = try LoopbackServer()
        server.route("/list") { _ in .text(body) }
        let output = BufferOutput()
        #expect(
            await DemoCommand.run(
                arguments: ["--url", server.url("/list").absoluteString],
                output: output
            ) == 1
        )
        #expect(output.errorLines.last?.hasPrefix("error: Decoding failed") == true)
        #expect(!output.text.contains("error:"))
    }

    @Test("--url pages through a Link-paginated API with the same screen")
    func remoteAPI() async throws {
        let server = try LoopbackServer()
        server.route("/repos") { request in
            let page = Int(request.query("page") ?? "1") ?? 1
            let link: HeaderFields =
                page < 5 ? [("Link", "</repos?page=\(page + 1)>; rel=\"next\"")] : []
            return .json((1...2).map { Repository(id: page * 10 + $0) }, headers: link)
        }
        let output = BufferOutput()
        let status = await DemoCommand.run(
            arguments: ["--url", server.url("/repos").absoluteString, "--pages", "2"],
            output: output
        )
        #expect(status == 0)
        #expect(
            output.lines.filter { $0.contains("\t") } == [
                "11\t#11", "12\t#12", "21\t#21", "22\t#22",
            ]
        )
        #expect(output.errorLines == ["2 pages, 4 items; the API has more (--pages N)"])
    }

    @Test(
        "--url keeps every page it loads, and ends saying how many of the total, and why: the end, more, another origin, an unreadable Link"
    )
    func remoteEnding() async throws {
        let server = try LoopbackServer()
        server.route("/repos") { request in
            let page = Int(request.query("page") ?? "1") ?? 1
            var headers: HeaderFields = [("X-Total-Count", "12")]
            if page < 6 {
                headers.append(
                    "Link",
                    "</repos?page=\(page + 1)>; rel=\"next\", </repos?page=6>; rel=\"last\""
                )
            }
            return .json((1...2).map { Repository(id: page * 10 + $0) }, headers: headers)
        }
        server.route("/mended") { request in
            guard request.query("page") == nil else { return .json([Repository(id: 2)]) }
            return .json(
                [Repository(id: 1)],
                headers: [("Link", "junk, </mended?page=2>; rel=\"next\"")]
            )
        }
        server.route("/garbled") { _ in
            .json([Repository(id: 1)], headers: [("Link", "/repos?page=2; rel=\"next\"")])
        }
        server.route("/elsewhere") { _ in
            .json([Repository(id: 1)], headers: [("Link", "<http://127.0.0.1:1/x>; rel=\"next\"")])
        }
        let all = BufferOutput()
        let status = await DemoCommand.run(
            arguments: ["--url", server.url("/repos").absoluteString, "--pages", "10"],
            output: all
        )
        #expect(status == 0)
        #expect(all.lines.filter { $0.contains("\t") }.count == 12)  // six pages, none dropped
        #expect(all.errorLines == ["6 pages, 12 of 12 items; the end of the list"])

        #expect(
            await ending(of: "/repos", on: server, "--pages", "2") == [
                "2 pages, 4 of 12 items; the API has more (--pages N), up to page 6"
            ]
        )
        #expect(
            await ending(of: "/elsewhere", on: server) == [
                "1 page, 1 item; the next page is on another origin, 127.0.0.1:1, not followed"
            ]
        )
        #expect(
            await ending(of: "/garbled", on: server) == [
                "1 page, 1 item; the Link header had a value that could not be read: the list may go on"
            ]
        )
        // An unreadable value on a page before the last does not end the list.
        #expect(
            await ending(of: "/mended", on: server) == ["2 pages, 2 items; the end of the list"]
        )
    }

    /// What `--url` writes to stderr for `path` on `server`, given `options` too.
    private func ending(
        of path: String,
        on server: LoopbackServer,
        _ options: String...
    ) async -> [String] {
        let output = BufferOutput()
        _ = await DemoCommand.run(
            arguments: ["--url", server.url(path).absoluteString] + options,
            output: output
        )
        return output.errorLines
    }

    @Test("a page failing after the first prints the items before it and fails on stderr")
    func remotePageFails() async throws {
        let server = try LoopbackServer()
        server.route("/repos") { request in
            guard request.query("page") == nil else { return .text("down", status: 500) }
            return .json(
                [Repository(id: 1)],
                headers: [("Link", "</repos?page=2>; rel=\"next\"")]
            )
        }
        let output = BufferOutput()
        let status = await DemoCommand.run(
            arguments: ["--url", server.url("/repos").absoluteString],
            output: output
        )
        #expect(status == 1)
        #expect(output.lines.filter { $0.contains("\t") } == ["1\t#1"])
        #expect(output.errorLines.count == 1)
        #expect(output.errorLines.first?.hasPrefix("error: stopped at a failed page") == true)
    }
}

/// A port on 127.0.0.1 that is bound but never listens: connecting to it is refused,
/// and no other test's server can take it while this lives (a stopped server's port
/// can be taken by a server of a test running in parallel).
private final class RefusingPort {
    struct Unavailable: Error {}

    let port: UInt16
    private let descriptor: Int32

    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(descriptor, address, length) == 0
                    && getsockname(descriptor, address, &length) == 0
            }
        }
        guard descriptor >= 0, bound else {
            close(descriptor)
            throw Unavailable()
        }
        self.descriptor = descriptor
        port = UInt16(bigEndian: address.sin_port)
    }

    deinit {
        close(descriptor)
    }
}

/// A repository as the `--url` tests' API lists it.
private struct Repository: Encodable {
    let id: Int
}
