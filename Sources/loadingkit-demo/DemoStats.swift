import Foundation
import LoadingKit

/// The main feed's counts, the one source of the progress line and of the summary:
/// the requests the feed screen sent (never the filter screen's), the answers 304, and
/// the time a request spends in flight beyond the delay the demo's server adds to every
/// answer. Time is counted only while a load is in flight, so that it means the same
/// with a person at the keys.
@MainActor
final class DemoStats {
    private let feed: DemoFeedServer
    private var busy = Duration.zero
    private var loadStarted: ContinuousClock.Instant?
    /// The requests sent by the end of the last load, those whose time `busy` holds.
    private var settledRequests = 0
    /// The requests the server had counted when the load in flight started.
    private var requestsAtStart = 0

    init(feed: DemoFeedServer) {
        self.feed = feed
    }

    /// Follows the screen's activity. A load that reached no server — it was away —
    /// counts neither a request nor its time, so the count and the average agree.
    func observe(_ state: LoadingState<[FeedItem]>) {
        if state.isLoading, loadStarted == nil {
            loadStarted = .now
            requestsAtStart = requests
        } else if !state.isLoading, let started = loadStarted {
            if requests > requestsAtStart {
                busy += started.duration(to: .now)
                settledRequests = requests
            }
            loadStarted = nil
        }
    }

    /// Requests the main feed sent.
    var requests: Int { feed.feedRequestCount }

    /// Requests of the main feed answered 304 Not Modified.
    var notModified: Int { feed.notModifiedCount }

    /// Time in flight per request, less the server's artificial delay.
    var timePerRequest: Duration {
        guard settledRequests > 0 else { return .zero }
        return max(.zero, (busy - feed.delay * settledRequests) / settledRequests)
    }

    /// The time per request, once a request has ended; the delay left out.
    var timing: String {
        settledRequests == 0
            ? "waiting for the first answer" : "\(DemoFormat.milliseconds(timePerRequest))/request"
    }

    /// What the server's artificial delay is, said once as the session starts; `nil`
    /// when there is none.
    var delayNote: String? {
        guard feed.delay > .zero else { return nil }
        return "the demo's server holds every answer \(Int(feed.delay / .milliseconds(1))) ms, "
            + "so that each step can be seen; times per request leave it out"
    }

    /// Pages held, items, requests sent and time per request.
    func line(for screen: FeedScreen) -> String {
        let sent: String
        switch (requests, screen.loadingState.isLoading) {
        case (0, true): sent = "the first request in flight"
        case (0, false): sent = "no request yet"
        default: sent = "\(DemoFormat.count(requests, "request")) · \(timing)"
        }
        return "\(DemoFormat.count(screen.pagination.pagesLoaded, "page")) held · "
            + "\(DemoFormat.count(screen.loadingState.content?.count ?? 0, "item")) · " + sent
    }

    /// What the main feed came to: the stories it holds in memory, and each once, then
    /// the requests.
    func summary(for screen: FeedScreen) -> [String] {
        let items = screen.loadingState.content ?? []
        let total = screen.pagination.totalCount.map { " of \($0)" } ?? ""
        let twice = items.count - Set(items.map(\.id)).count
        return [
            "main feed: \(items.count)\(total) stories held in "
                + "\(DemoFormat.count(screen.pagination.pagesLoaded, "page")), "
                + (twice == 0
                    ? "none twice"
                    : "\(DemoFormat.count(twice, "story", plural: "stories")) twice"),
            "requests: \(requests) for the main feed, \(notModified) answered 304 Not Modified · "
                + timing,
        ]
    }
}
