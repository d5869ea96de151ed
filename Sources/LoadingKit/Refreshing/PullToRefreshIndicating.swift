/// The indicator a ``PullToRefresh`` drives: a spinner, an arrow, a progress ring.
///
/// ```swift
/// final class ArrowIndicator: PullToRefreshIndicating {
///     func update(progress: Double, beyondThreshold: Bool) {
///         arrow.rotation = beyondThreshold ? .pi : progress * .pi
///     }
/// }
/// ```
///
/// Every method has a default that does nothing.
@MainActor
public protocol PullToRefreshIndicating: AnyObject {
    /// The visible part of the indicator changed: `progress` from 0 (hidden) to 1
    /// (the threshold), and whether a release now would refresh. Default: nothing.
    ///
    /// - Parameters:
    ///   - progress: How far toward the threshold the content is pulled, from 0 to 1.
    ///   - beyondThreshold: Whether a release now would refresh.
    func update(progress: Double, beyondThreshold: Bool)

    /// A refresh started: animate. Default: nothing.
    func startAnimating()

    /// The refresh ended and the indicator is about to be dismissed: stop animating.
    /// Default: nothing.
    func stopAnimating()
}

// MARK: - Default implementations

extension PullToRefreshIndicating {
    /// Does nothing.
    ///
    /// - Parameters:
    ///   - progress: How far toward the threshold the content is pulled, from 0 to 1.
    ///   - beyondThreshold: Whether a release now would refresh.
    public func update(progress: Double, beyondThreshold: Bool) {}

    /// Does nothing.
    public func startAnimating() {}

    /// Does nothing.
    public func stopAnimating() {}
}
