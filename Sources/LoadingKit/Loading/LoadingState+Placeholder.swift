extension LoadingState {
    /// What a view shows for a state, derived so that views need no logic of their own.
    ///
    /// ```swift
    /// if case .error(let error) = state.placeholder { errorLabel.text = error.description }
    /// ```
    public enum Placeholder: Sendable, Equatable {
        /// Nothing loaded and nothing in flight.
        case blank
        /// The loading indicator: a load is in flight and there is nothing to show.
        case loading
        /// The empty message: the content loaded is empty.
        case empty
        /// The error message: the last load failed and there is nothing to show.
        case error(LoadingError)
        /// The content.
        case content
    }

    /// What the view should show.
    ///
    /// Content that is not empty always wins, whatever is in flight or failed: a
    /// failed reload keeps showing the content, and ``error`` stays readable. Empty
    /// content shows the empty placeholder, except during a ``LoadingActivity/loading``
    /// load. Without content, a ``LoadingActivity/loading`` load shows the loading
    /// placeholder, then an error shows the error placeholder.
    public var placeholder: Placeholder {
        if content != nil {
            if !isEmpty { return .content }
            return activity == .loading ? .loading : .empty
        }
        if activity == .loading { return .loading }
        if let error { return .error(error) }
        return .blank
    }
}
