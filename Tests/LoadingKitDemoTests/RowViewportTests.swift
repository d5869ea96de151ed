import Foundation
import LoadingKit
import Testing

@testable import loadingkit_demo

@Suite("the rows the terminal shows", .timeLimit(.minutes(1)))
struct RowViewportTests {
    @Test("a page appended is scrolled to and marked new")
    func appended() {
        var viewport = RowViewport()
        viewport.apply(.replaced, from: .idle)
        viewport.apply(.appended(30..<60), from: .loadingNextPage)
        #expect(viewport.marked == IndexSet(integersIn: 30..<60))
        #expect(viewport.visible(of: 60, room: 28) == 30..<58)
        #expect(viewport.visible(of: 45, room: 28) == 17..<45)  // a full view, up to the end
    }

    @Test("rows dropped from the head move the view and the marks with the rows")
    func removedAtHead() {
        var viewport = RowViewport()
        viewport.apply(.appended(120..<150), from: .loadingNextPage)
        viewport.apply(.removed(0..<35), from: .idle)
        #expect(viewport.top == 85)
        #expect(viewport.marked == IndexSet(integersIn: 85..<115))
    }

    @Test("rows dropped from the tail leave rows inserted at the head as they are")
    func insertedThenRemovedAtTail() {
        var viewport = RowViewport()
        viewport.apply(.appended(90..<120), from: .loadingNextPage)
        viewport.apply(.inserted(IndexSet(integersIn: 0..<30)), from: .loadingPreviousPage)
        viewport.apply(.removed(120..<150), from: .idle)
        #expect(viewport.top == 0)
        #expect(viewport.marked == IndexSet(integersIn: 0..<30))
    }

    @Test("a new step forgets the marks; a replacement goes back to the top")
    func clearing() {
        var viewport = RowViewport()
        viewport.apply(.appended(30..<60), from: .loadingNextPage)
        viewport.clearMarks()
        #expect(viewport.marked.isEmpty)
        #expect(viewport.top == 30)
        viewport.apply(.replaced, from: .idle)
        #expect(viewport.top == 0)
    }

    @Test(
        "rows are marked by what brought them: a refresh's as new, a page's by its direction",
        arguments: [
            (
                ContentChange.inserted(IndexSet(integersIn: 0..<5)), LoadingActivity.refreshing,
                "+ new "
            ),
            (.inserted(IndexSet(integersIn: 0..<30)), .loadingPreviousPage, "↑ page"),
            (.appended(30..<60), .loadingNextPage, "↓ page"),
        ]
    )
    func marks(change: ContentChange, load: LoadingActivity, mark: String) {
        var viewport = RowViewport()
        viewport.apply(change, from: load)
        viewport.apply(.removed(100..<110), from: .idle)  // the window's end: the mark stays
        #expect(viewport.arrival.mark == mark)
    }

    @Test("fewer rows than room shows them all")
    func fewRows() {
        var viewport = RowViewport()
        viewport.apply(.appended(3..<5), from: .loadingNextPage)
        #expect(viewport.visible(of: 5, room: 28) == 0..<5)
        #expect(viewport.visible(of: 0, room: 28) == 0..<0)
    }
}
