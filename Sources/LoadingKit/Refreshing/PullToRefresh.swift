import LoadingKitNetworking

/// The pull-to-refresh gesture as a state machine, without UIKit: a UI layer feeds it
/// the pull distance and the end of the gesture, and applies ``contentInset``.
///
/// ```swift
/// let pull = PullToRefresh(threshold: 60, indicator: spinner, refreshing: feedScreen)
/// pull.pulled(to: 30)   // progress 0.5
/// pull.pulled(to: 75)   // beyond the threshold
/// pull.released()       // feedScreen.refresh() starts; the indicator animates
/// scrollView.contentInset.top = pull.contentInset
/// ```
///
/// Releasing beyond the threshold refreshes; releasing below it just hides. While a
/// refresh runs the indicator stays shown — it cannot be dismissed, and another pull
/// does not start a second refresh; when the refresh ends, successful or not,
/// ``PullToRefreshIndicating/stopAnimating()`` is called and the indicator hides.
///
/// On Apple platforms the system already draws the gesture: call
/// ``Refreshable/refresh()`` from SwiftUI's `.refreshable { await list.refresh() }` or
/// from a `UIRefreshControl` action, and ``LoadingState/activity`` says when it is
/// over. `PullToRefresh` is for pulls the app draws itself: a custom control, a game,
/// a terminal, a toolkit on Linux.
@MainActor
public final class PullToRefresh {
    /// Where the gesture is.
    public enum Phase: Sendable, Equatable {
        /// The indicator is hidden.
        case idle
        /// Pulled, but not as far as the threshold.
        case pulling
        /// Pulled beyond the threshold: releasing now refreshes.
        case armed
        /// A refresh runs; the indicator stays shown until it ends.
        case refreshing
    }

    /// The pull distance at which releasing refreshes; positive.
    public let threshold: Double

    /// Where the gesture is.
    public private(set) var phase = Phase.idle

    /// The visible part of the indicator, from 0 to 1 (the threshold).
    public private(set) var progress = 0.0

    private weak var indicator: (any PullToRefreshIndicating)?
    /// Starts the refresh in the calling turn, as far as it can, and returns what
    /// awaits its end.
    private let start: @MainActor () -> @MainActor () async -> Void
    private var lastReported: (progress: Double, beyondThreshold: Bool) = (0, false)

    /// Creates a gesture model that runs `refresh` when released beyond `threshold`.
    ///
    /// `refresh` runs in a task of its own, so a state it sets shows from the next
    /// turn; ``init(threshold:indicator:refreshing:)`` starts a screen's refresh in
    /// the turn of the release.
    ///
    /// - Parameters:
    ///   - threshold: The pull distance at which releasing refreshes.
    ///   - indicator: The indicator to drive; held weakly.
    ///   - refresh: The work a release starts; the indicator stays until it returns.
    public convenience init(
        threshold: Double,
        indicator: (any PullToRefreshIndicating)? = nil,
        refresh: @escaping @MainActor () async -> Void
    ) {
        self.init(threshold: threshold, indicator: indicator, starting: { refresh })
    }

    /// Creates a gesture model that refreshes `target`, held weakly. The refresh
    /// starts in the turn of the release: the target's ``LoadingState/activity`` says
    /// ``LoadingActivity/refreshing`` when ``released()`` returns.
    ///
    /// - Parameters:
    ///   - threshold: The pull distance at which releasing refreshes.
    ///   - indicator: The indicator to drive; held weakly.
    ///   - target: What a release refreshes with ``Refreshable/startRefreshing(completion:)``.
    public convenience init<Target: Refreshable>(
        threshold: Double,
        indicator: (any PullToRefreshIndicating)? = nil,
        refreshing target: Target
    ) {
        self.init(threshold: threshold, indicator: indicator) { [weak target] in
            let refresh = target?.startRefreshing()
            return { await refresh?.finish() }
        }
    }

    private init(
        threshold: Double,
        indicator: (any PullToRefreshIndicating)?,
        starting start: @escaping @MainActor () -> @MainActor () async -> Void
    ) {
        precondition(threshold > 0, "PullToRefresh needs a positive threshold")
        self.threshold = threshold
        self.indicator = indicator
        self.start = start
    }

    /// Whether a release now would refresh.
    public var isBeyondThreshold: Bool { phase == .armed }

    /// The inset the content keeps above it: the threshold while refreshing, so the
    /// indicator stays in view, and 0 otherwise.
    public var contentInset: Double { phase == .refreshing ? threshold : 0 }

    /// The gesture moved: the content is pulled `distance` down from its rest.
    /// Ignored while refreshing.
    ///
    /// - Parameter distance: How far the content is pulled down, in the unit of
    ///   ``threshold``; 0 or less at rest.
    public func pulled(to distance: Double) {
        guard phase != .refreshing else { return }
        progress = min(1, max(0, distance / threshold))
        phase = distance <= 0 ? .idle : distance >= threshold ? .armed : .pulling
        report()
    }

    /// The gesture ended. Beyond the threshold this starts the refresh and returns its
    /// task; otherwise the indicator hides and it returns `nil`. A release while
    /// refreshing does nothing.
    ///
    /// - Returns: The task of the refresh started, or `nil` when none started.
    @discardableResult
    public func released() -> Task<Void, Never>? {
        switch phase {
        case .refreshing:
            return nil
        case .idle, .pulling:
            hide()
            return nil
        case .armed:
            phase = .refreshing
            progress = 1
            indicator?.startAnimating()
            let ended = start()
            return Task { [weak self] in
                await ended()
                self?.refreshDidEnd()
            }
        }
    }

    private func refreshDidEnd() {
        indicator?.stopAnimating()
        hide()
    }

    private func hide() {
        phase = .idle
        progress = 0
        report()
    }

    private func report() {
        let current = (progress, isBeyondThreshold)
        guard current != lastReported else { return }
        lastReported = current
        indicator?.update(progress: progress, beyondThreshold: isBeyondThreshold)
    }
}
