/// What a loader has in flight.
///
/// ```swift
/// if screen.loadingState.activity == .refreshing { indicator.startAnimating() }
/// ```
public enum LoadingActivity: Sendable, Equatable, CustomStringConvertible {
    /// Nothing.
    case idle
    /// A load that shows the loading placeholder while there is no content.
    case loading
    /// A load in the background: whatever is shown stays, without a placeholder.
    case reloading
    /// A pull-to-refresh.
    case refreshing
    /// The next page of a paginated list.
    case loadingNextPage
    /// The page before the content of a paginated list.
    case loadingPreviousPage

    /// The activity's name.
    public var description: String {
        switch self {
        case .idle: "idle"
        case .loading: "loading"
        case .reloading: "reloading"
        case .refreshing: "refreshing"
        case .loadingNextPage: "loading next page"
        case .loadingPreviousPage: "loading previous page"
        }
    }
}
