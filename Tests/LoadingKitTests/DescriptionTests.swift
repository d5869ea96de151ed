import Foundation
import LoadingKit
import LoadingKitTesting
import Testing

/// What `print` shows of the values a user prints: plain words, never Swift's syntax.
@MainActor
@Suite("Readable descriptions", .timeLimit(.minutes(1)))
struct DescriptionTests {
    @Test(
        "a content change reads as rows counted from 1",
        arguments: [
            (ContentChange.appended(10..<20), "appended rows 11–20"),
            (.appended(3..<4), "appended row 4"),
            (.inserted(IndexSet(0..<3)), "inserted 3 rows at the top"),
            (.inserted(IndexSet(integer: 0)), "inserted 1 row at the top"),
            (.inserted(IndexSet([2, 5, 6])), "inserted row 3, rows 6–7"),
            (.removed(0..<10), "removed rows 1–10"),
            (.replaced, "replaced the content"),
            (.none, "no change"),
        ]
    )
    func contentChange(change: ContentChange, expected: String) {
        #expect(change.description == expected)
        #expect("\(change)" == expected)
    }

    @Test("a state and a list's window read as what the screen shows")
    func stateAndWindow() async {
        let mock = MockTransport()
        mock.respond(page: 1, posts: [1, 2, 3])
        mock.respond(to: "/posts?page=2&per_page=3", with: .status(503))
        let screen = PagedScreen<Post, Int>(transport: mock) { page in
            .pageNumber(url: URL(string: "https://api.example.com/posts")!, page: page, size: 3)
        }
        #expect(screen.loadingState.description == "unloaded (idle)")
        #expect(screen.pagination.description == "no pages")
        await screen.loadFirstPage()
        #expect(screen.loadingState.description == "content (idle)")
        #expect(screen.pagination.description == "1 page, 3 items, more to load")
        await screen.loadNextPage()
        #expect(
            screen.pagination.description.hasPrefix(
                "1 page, 3 items, more to load, next page failed: "
            )
        )
        #expect(screen.pagination.description.contains("503"))
    }
}
