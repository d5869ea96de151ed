import Foundation
import LoadingKit

/// Draws the demo: the plain renderer for pipes and tests, the terminal renderer
/// for people.
@MainActor
protocol DemoRenderer: AnyObject {
    /// A new step of the session begins.
    func step(_ title: String)
    /// A remark about the current step.
    func note(_ text: String)
    /// The screen's state or rows changed.
    func render(
        _ state: LoadingState<[FeedItem]>,
        pagination: PaginationState<URL>,
        change: ContentChange?
    )
    /// The progress line: pages, items, requests, time per request.
    func progress(_ text: String)
    /// The feed screen is done with: the steps that follow are told in notes.
    func leaveFeed()
    /// The session is over.
    func finish()
}

extension PlainRenderer: DemoRenderer {
    /// The plain renderer prints the counts once, in the summary.
    func progress(_ text: String) {}

    /// The plain renderer prints every note anyway.
    func leaveFeed() {}

    func finish() {}
}

extension TerminalRenderer: DemoRenderer {}
