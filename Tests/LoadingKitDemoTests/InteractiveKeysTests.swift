import Foundation
import LoadingKit
import Testing

@testable import loadingkit_demo

/// The interactive session as a person sees it in a 120×40 terminal, keys typed ahead.
@MainActor
@Suite("the interactive session's keys", .timeLimit(.minutes(1)))
struct InteractiveKeysTests {
    /// The frames drawn while `keys` are played against a feed answering after `delay`;
    /// each `r` publishes three stories.
    private func play(
        _ keys: String,
        delay: Duration = .zero,
        columns: Int = 120,
        rows: Int = 40
    ) async throws -> FrameOutput {
        let output = FrameOutput(columns: columns, rows: rows)
        let feed = try DemoFeedServer(delay: delay)
        defer { feed.server.stop() }
        let renderer = TerminalRenderer(output: output, hold: .seconds(2)) { output.pause($0) }
        var session = InteractiveSession(
            feed: feed,
            renderer: renderer,
            webservice: Webservice(
                transport: URLSessionTransport(configuration: .init(timeout: 10))
            )
        )
        session.publishing = { 3 }
        await session.run(
            keys: AsyncStream { typed in
                for key in keys where key != " " { typed.yield(key) }
                typed.finish()
            }
        )
        renderer.finish()
        return output
    }

    /// The index of the first frame with a line that `matches`, after frame `start`.
    private func first(
        in output: FrameOutput,
        after start: Int = -1,
        where matches: (String) -> Bool
    ) throws -> Int {
        try #require(
            output.frames.indices.first { $0 > start && output.frames[$0].contains(where: matches) }
        )
    }

    @Test("r r n n n n n p: the page loaded back meets the pages held, no story lost")
    func refreshesPagesAndBack() async throws {
        let output = try await play("r r n n n n n p q")
        let last = try #require(output.frames.last)
        // Four pages of 30: stories 246 to 127, 216 to 211 among them.
        #expect(last.contains { $0.hasPrefix("  4 pages held · 120 items · ") })
    }

    @Test("each key's note replaces the last; r says it publishes stories, and marks them new")
    func notesAndMarks() async throws {
        // The third page fails once: five n load four pages, and drop the first.
        let output = try await play("p r n n n n n p q")
        let atHead = try first(in: output) {
            $0 == "  the head of the feed: there is no page before these"
        }
        let published = "  3 new stories published on the server; refreshing"
        let refreshed = try first(in: output, after: atHead) { $0 == published }
        #expect(!output.frames[refreshed].contains { $0.contains("the head of the feed") })
        let settled = try first(in: output, after: refreshed) { $0.hasPrefix("  + new  Story 24") }
        #expect(output.frames[settled].count { $0.hasPrefix("  + new  Story 24") } == 3)
        let done = try first(in: output, after: refreshed) {
            $0 == "  3 new stories published on the server; refreshed: 3 new stories at the head, "
                + "marked + new"
        }
        #expect(output.frames[done].count { $0.hasPrefix("  + new  Story 24") } == 3)
        #expect(output.frames[done].contains("  ✓ up to date"))
        _ = try first(in: output, after: done) {
            $0.hasPrefix("  ⚠ page 3 not loaded: status 503")
                && $0.hasSuffix(" — loading more asks again")
        }
        let paged = try first(in: output, after: settled) { $0.hasPrefix("  ↓ page Story ") }
        #expect(!output.frames[paged...].contains { $0.contains(published) })
        #expect(!output.frames[paged].contains { $0.hasPrefix("  + new ") })
        let back = try first(in: output, after: paged) { $0.hasPrefix("  ↑ page Story ") }
        #expect(!output.frames[back].contains { $0.hasPrefix("  ↓ page ") })
        #expect(
            output.frames.allSatisfy {
                $0.contains { $0.hasPrefix("  r publish, refresh · ") }
            }
        )
    }

    @Test("f says it reloads the pages held, one request each, and marks no row")
    func forceReload() async throws {
        let output = try await play("n f q")
        let reloading = try first(in: output) {
            $0 == "  reloading the 2 pages held, one request each"
        }
        _ = try first(in: output, after: reloading) { $0.hasSuffix(" reloading") }
        let marks = ["  + new ", "  ↓ page ", "  ↑ page "]
        let last = try #require(output.frames.last)
        #expect(last.contains { $0.hasPrefix("  2 pages held · 60 items · 4 requests · ") })
        #expect(
            !output.frames[reloading...].contains {
                $0.contains { line in marks.contains { line.hasPrefix($0) } }
            }
        )
    }

    @Test("the server's delay is said once, as the session starts, and not in the counts")
    func delaySaidOnce() async throws {
        let output = try await play("q", delay: .milliseconds(20))
        let note =
            "  the demo's server holds every answer 20 ms, so that each step can be seen; "
            + "times per request leave it out"
        #expect(output.frames.last?.contains(note) == true)
        // Said in the one note, never in the counts (whose own times can end in "20 ms").
        #expect(output.frames.allSatisfy { $0.filter { $0.contains("every answer") }.count <= 1 })
        #expect(!output.frames.contains { $0.contains { $0.contains("delay") } })
        #expect(!output.frames.contains { $0.contains { $0.contains("0.00 ms/request") } })
        #expect(
            output.frames.last?.contains { $0.hasPrefix("  1 page held · 30 items · 1 request · ") }
                == true
        )
    }

    @Test(
        "s r s r: the refresh brings the stories published while away too, and says as many as it marks"
    )
    func marksMatchTheMessage() async throws {
        let output = try await play("s r s r q")
        let done = try first(in: output) {
            $0.hasPrefix("  3 new stories published on the server; refreshed: ")
        }
        let frame = output.frames[done]
        #expect(
            frame.contains(
                "  3 new stories published on the server; refreshed: 6 new stories at the head, "
                    + "marked + new"
            )
        )
        #expect(frame.count { $0.hasPrefix("  + new ") } == 6)
    }

    @Test(
        "n n n n n r: a refresh away from the head keeps the window, marks nothing, and says where the new stories are"
    )
    func refreshAwayFromHeadSaysWhere() async throws {
        // The third page fails once: five n hold four pages, the first dropped.
        let output = try await play("n n n n n r q")
        let done = try first(in: output) {
            $0.hasPrefix("  3 new stories published on the server; refreshed the 4 pages held in ")
        }
        let frame = output.frames[done]
        #expect(
            frame.joined(separator: " ").contains("the new stories are above them, p pages")
        )
        #expect(frame.contains { $0.hasPrefix("  4 pages held · 120 items · ") })
        #expect(!frame.contains { $0.hasPrefix("  + new ") })
    }

    @Test("s r: a refresh while the server is away says it failed, not that it refreshed")
    func refreshWhileAwaySaysItFailed() async throws {
        let output = try await play("s r q")
        _ = try first(in: output) {
            $0.hasPrefix("  3 new stories on the server, but the refresh could not get them: ")
        }
        #expect(
            !output.frames.contains {
                $0.contains("  3 new stories published on the server; refreshed")
            }
        )
    }

    @Test("s r r: loads that reach no server change neither the request count nor the average")
    func countsAgreeWhileAway() async throws {
        let output = try await play("s r r q", delay: .milliseconds(5))
        let counts = output.frames.compactMap { frame in
            frame.first { $0.hasPrefix("  1 page held · ") }
        }
        #expect(!counts.isEmpty)
        // One request, one average: the failed refreshes add to neither.
        #expect(Set(counts.filter { $0.contains("ms/request") }).count == 1)
    }

    @Test("at 80×24 and 120×40 every key shows, and no note or status is cut mid-word")
    func wrapsInsteadOfCutting() async throws {
        for (columns, rows) in [(80, 24), (120, 40)] {
            let output = try await play("s r n q", columns: columns, rows: rows)
            let last = try #require(output.frames.last)
            #expect(last.joined(separator: "\n").contains("q quit"))
            #expect(last.contains { $0.contains("s server away/back") })
            // Only a row's title may be shortened; notes, status and keys are wrapped.
            let cut = output.frames.flatMap { $0 }.filter {
                $0.hasSuffix("…") && !$0.contains("Story") && !$0.hasSuffix("Loading…")
            }
            #expect(cut.isEmpty, "cut: \(cut)")
            #expect(output.frames.allSatisfy { $0.allSatisfy { $0.count < columns } })
        }
    }

    @Test("s n s n n: the server back answers every page, the third one too")
    func serverBackAnswersEveryPage() async throws {
        let output = try await play("s n s n n q")
        _ = try first(in: output) { $0 == "  the server is back: every page answers" }
        let last = try #require(output.frames.last)
        #expect(last.contains { $0.hasPrefix("  3 pages held · 90 items · ") })
        #expect(!output.frames.contains { $0.contains { $0.contains("status 503") } })
    }

    @Test("n n n r f: the reload says how many pages it loaded, and why more than were held")
    func reloadSaysWhatItLoaded() async throws {
        // The third page fails once, then loads: three pages held when f reloads.
        let output = try await play("n n n r f q")
        let reloading = try first(in: output) {
            $0 == "  reloading the 3 pages held, one request each"
        }
        let reloaded = try first(in: output, after: reloading) {
            $0.hasPrefix("  reloaded 4 pages, one request each: stories published at the head")
        }
        #expect(!output.frames[reloaded].contains("  reloading the 3 pages held, one request each"))
    }
}
