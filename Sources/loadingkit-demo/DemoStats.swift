import Foundation
import LoadingKit

/// The progress line's counts: time is counted only while a load is in flight, so
/// that the time per request means the same with a person at the keys.
@MainActor
final class DemoStats {
    private let feed: DemoFeedServer
    private var busy = Duration.zero
    private var loadStarted: ContinuousClock.Instant?

    init(feed: DemoFeedServer) {
        self.feed = feed
    }

    /// Follows the screen's activity.
    func observe(_ state: LoadingState<[FeedItem]>) {
        if state.isLoading, loadStarted == nil {
            loadStarted = .now
        } else if !state.isLoading, let started = loadStarted {
            busy += started.duration(to: .now)
            loadStarted = nil
        }
    }

    /// Wall time in flight per request sent, in milliseconds.
    var millisecondsPerRequest: Double {
        let components = busy.components
        return (Double(components.seconds) * 1000 + Double(components.attoseconds) / 1e15)
            / Double(max(1, feed.requestCount))
    }

    /// Pages, items, requests sent and time per request.
    func line(for screen: FeedScreen) -> String {
        "\(DemoFormat.count(screen.pagination.pagesLoaded, "page")) held · "
            + "\(DemoFormat.count(screen.loadingState.content?.count ?? 0, "item")) · "
            + "\(DemoFormat.count(feed.requestCount, "request")) · "
            + String(format: "%.2f ms per request", millisecondsPerRequest)
    }
}
