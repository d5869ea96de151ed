import Foundation
import LoadingKit
import Testing

@testable import loadingkit_demo

@MainActor
@Suite("the terminal view of the scripted session", .timeLimit(.minutes(1)))
struct TerminalRendererTests {
    /// The frames of the whole session drawn on a terminal of `columns` × `rows`.
    private func session(columns: Int = 120, rows: Int = 40) async throws -> FrameOutput {
        let output = FrameOutput(columns: columns, rows: rows)
        let feed = try DemoFeedServer(delay: .zero)
        let stories = try DemoStoryServer(delay: .zero)
        defer {
            feed.server.stop()
            stories.server.stop()
        }
        let renderer = TerminalRenderer(output: output, hold: .seconds(2)) { duration in
            output.pause(duration)
        }
        let summary = await ScriptedSession(
            feed: feed,
            stories: stories,
            renderer: renderer,
            webservice: Webservice(
                transport: URLSessionTransport(configuration: .init(timeout: 10))
            )
        ).run()
        renderer.finish()
        #expect(summary.problem == nil)
        return output
    }

    /// The lines of `frame` that tell the feed screen's status.
    private func statusLines(_ frame: [String]) -> [String] {
        let marks = ["✓", "⚠", "∅"] + "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏".map(String.init)
        return frame.filter { line in marks.contains { line.hasPrefix("  \($0) ") } }
    }

    @Test("every frame fits the window: no line wraps, the screen never scrolls")
    func fits() async throws {
        for (columns, rows) in [(120, 40), (80, 24), (50, 12)] {
            let output = try await session(columns: columns, rows: rows)
            #expect(!output.frames.isEmpty)
            #expect(output.frames.allSatisfy { $0.count <= rows })
            #expect(output.frames.allSatisfy { $0.allSatisfy { $0.count < columns } })
        }
    }

    @Test("the status line comes right under the title: nothing blank between them")
    func statusUnderTitle() async throws {
        let output = try await session()
        let feedFrames = output.frames.filter { !statusLines($0).isEmpty }
        #expect(!feedFrames.isEmpty)
        #expect(feedFrames.allSatisfy { statusLines($0).first == $0[1] })
    }

    @Test("at 120×40 most of a page is seen arriving, marked as a page, not as new stories")
    func pagesArrive() async throws {
        let output = try await session()
        let paging = output.frames(titled: "4. Pages to the end, four pages held")
        let newest = paging.map { $0.count { $0.hasPrefix("  ↓ page Story ") } }.max() ?? 0
        #expect(newest >= 25)
        #expect(!paging.contains { $0.contains { $0.contains("+ new ") } })
        let back = output.frames(titled: "5. Back toward the head")
        #expect(back.contains { $0.count { $0.hasPrefix("  ↑ page Story 1") } >= 25 })
        // Marked or not, every row's title starts in the same column.
        let row = #/  .{6} Story \d+/#
        let rows = (paging + back).joined().filter { $0.wholeMatch(of: row) != nil }
        #expect(rows.count > 100)
        #expect(rows.allSatisfy { $0.dropFirst(9).hasPrefix("Story ") })
        #expect(
            // 40 lines less the title, the status, a line above and below the rows, and
            // the footer's three.
            paging.allSatisfy { $0.count { $0.hasPrefix("  ") && $0.contains("Story ") } <= 33 }
        )
    }

    @Test("the 304 note stays on screen until the next step replaces it")
    func notModifiedNoteStays() async throws {
        let output = try await session()
        let last = try #require(output.frames(titled: "2. Background reload").last)
        #expect(last.contains("  server answered 304 Not Modified to 1 request; content kept"))
    }

    @Test("every step's screen is held before the next step replaces it, and a failed page")
    func held() async throws {
        let output = try await session()
        let titles = output.frames.map { $0.first ?? "" }
        let changes = titles.indices.dropFirst().filter { titles[$0] != titles[$0 - 1] }
        #expect(changes.count == 13)  // to steps 2 to 13, and to the summary
        for change in changes {
            #expect(
                output.pauses.contains { $0.afterFrames == change && $0.duration == .seconds(2) }
            )
        }
        let failed = try #require(
            output.frames.firstIndex { $0.contains { $0.hasPrefix("  ⚠ page 3 not loaded") } }
        )
        #expect(output.pauses.contains { $0.afterFrames == failed + 1 })
    }

    @Test("the refresh's result shows under its own step, and not under the next")
    func refreshUnderItsStep() async throws {
        let output = try await session()
        let refreshed = try #require(output.frames(titled: "3. Pull to refresh").last)
        #expect(refreshed.contains { $0.hasPrefix("  refreshed: 5 new stories at the head") })
        #expect(refreshed.count { $0.hasPrefix("  + new  Story 24") } == 5)
        let next = try #require(output.frames(titled: "4. Pages to the end, four pages held").first)
        #expect(!next.contains { $0.contains("+ new ") || $0.contains("refreshed:") })
    }

    @Test("a retry shows once, in the status line, by the page's name, until the page arrives")
    func retryShownOnce() async throws {
        let output = try await session()
        let paging = output.frames(titled: "4. Pages to the end, four pages held")
        let retrying = paging.firstIndex { $0.contains { $0.contains("retrying page 3") } }
        let arrived = paging.firstIndex { $0.contains("  ↓ page Story 185") }
        #expect(try #require(retrying) < #require(arrived))
        for frame in paging {
            #expect(frame.count { $0.contains("retrying page 3") } <= 1)
            #expect(!frame.contains { $0.contains("retrying") && $0.contains("http") })
        }
        #expect(
            !paging[try #require(arrived)...].contains { $0.contains { $0.contains("retrying") } }
        )
    }

    @Test("one status line, current: a failed page, its retry, then up to date")
    func oneStatusLine() async throws {
        let output = try await session()
        let feedFrames = output.frames.filter { !statusLines($0).isEmpty }
        #expect(feedFrames.allSatisfy { statusLines($0).count == 1 })
        let statuses = feedFrames.map { statusLines($0)[0] }
        let failed = statuses.firstIndex { $0.hasPrefix("  ⚠ page 3 not loaded: status 503") }
        let retry = statuses.firstIndex { $0.contains(" retrying page 3, which failed: ") }
        #expect(try #require(failed) < #require(retry))
        #expect(statuses[try #require(retry)...].contains("  ✓ up to date"))
    }

    @Test("the main feed's counts are not shown over another screen, and the summary has one")
    func countsAboutTheMainFeed() async throws {
        let output = try await session()
        let filter = output.frames(titled: "6. Empty filter")
        #expect(filter.last?.contains("  ∅ Nothing here. Try another filter.") == true)
        #expect(!filter.contains { $0.contains { $0.contains("request") } })
        let summary = try #require(output.frames(titled: "Summary").last).joined(separator: "\n")
        #expect(summary.contains("main feed: 120 of 245 stories held in 4 pages, none twice"))
        // One count of the main feed's requests, with the time per request.
        #expect(summary.components(separatedBy: "for the main feed").count - 1 == 1)
        #expect(summary.contains("requests: 14 for the main feed, 3 answered 304 Not Modified · "))
    }
}

@Suite("a terminal frame", .timeLimit(.minutes(1)))
struct TerminalFrameTests {
    @Test("a frame in a tiny window still fits it")
    func tiny() {
        var frame = TerminalFrame()
        frame.title = "3. Pull to refresh, a title longer than the window is wide"
        frame.notes = (1...8).map { "note \($0), with words enough to be cut at the window's edge" }
        frame.progress = "1 page held · 30 items · 1 request · 2.00 ms per request"
        for size in [TerminalSize(columns: 30, rows: 6), TerminalSize(columns: 10, rows: 3)] {
            let lines = frame.lines(in: size).map(FrameOutput.plain)
            #expect(lines.count <= size.rows)
            #expect(lines.allSatisfy { $0.count < size.columns })
        }
    }
}
