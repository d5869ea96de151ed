import Foundation
import LoadingKit

/// Draws the demo: the plain renderer for pipes and tests, the terminal renderer
/// for people.
@MainActor
protocol DemoRenderer: AnyObject {
    /// A new step of the session begins; the terminal first leaves the last step's
    /// screen up long enough to be read.
    func step(_ title: String) async
    /// A remark about the current step, kept until the next step.
    func note(_ text: String)
    /// What happens now: kept until the rows next change, or the step ends.
    func notice(_ text: String)
    /// Gives a person time to read the screen; the plain renderer goes straight on.
    func pause() async
    /// The screen's state changed, or its rows by `change`.
    func render(_ screen: FeedScreen, change: ContentChange?)
    /// The progress line: the main feed's pages, items, requests, time per request;
    /// empty while another screen is shown.
    func progress(_ text: String)
    /// The feed screen is done with: the steps that follow are told in notes.
    func leaveFeed()
    /// The session is over.
    func finish()
}

extension PlainRenderer: DemoRenderer {
    /// The plain renderer prints a notice as it prints a note.
    func notice(_ text: String) {
        note(text)
    }

    func pause() async {}

    /// The plain renderer prints the counts once, in the summary.
    func progress(_ text: String) {}

    /// The plain renderer prints every note anyway.
    func leaveFeed() {}

    func finish() {}
}

extension TerminalRenderer: DemoRenderer {}
