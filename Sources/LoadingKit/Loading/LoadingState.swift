/// Everything a screen needs to know about its content at once: what was last
/// loaded, what is in flight, the last error, whether the content is empty, and when
/// it was loaded.
///
/// ```swift
/// var loadingState = LoadingState<[Post]>()
///
/// switch loadingState.placeholder {
/// case .loading: showSpinner()
/// case .empty: showEmptyMessage()
/// case .error(let error): showError(error.description)
/// case .content: showRows()
/// case .blank: break
/// }
/// ```
///
/// The kit changes the state; a conformer only stores it. Copies handed to hooks and
/// observers are plain values.
public struct LoadingState<Value: Sendable>: Sendable {
    /// The content last applied, kept through later reloads and failures.
    public internal(set) var content: Value?
    /// What is in flight.
    public internal(set) var activity: LoadingActivity
    /// The error of the last load that failed, until one succeeds. It stays
    /// readable while content is shown.
    public internal(set) var error: LoadingError?
    /// Whether ``content`` is empty, as ``Loading/isEmpty(_:)`` judged it.
    public internal(set) var isEmpty: Bool
    /// When ``content`` was last loaded or confirmed unchanged, by the loader's clock.
    public internal(set) var loadedAt: ContinuousClock.Instant?
    /// When the last load failed, by the loader's clock; `nil` once one succeeds.
    public internal(set) var failedAt: ContinuousClock.Instant?
    /// How much of the response in flight has arrived, from 0 to 1, when the
    /// transport reports it.
    public internal(set) var progress: Double?
    /// Whether the last load ended because it was cancelled — by
    /// ``Loading/cancelLoading()``, by cancelling the task awaiting it, or by
    /// cancelling its ``LoadTask`` — rather than with a value or an error; `false`
    /// again once another load starts. Cancellation is never recorded as an error.
    public internal(set) var wasCancelled: Bool

    /// The bookkeeping of the loader that owns this state; never part of a copy
    /// handed out. Made with the state, so that no read has to write the state.
    var runtime: LoadingRuntime<Value>?

    /// The unloaded state: no content, nothing in flight, no error.
    public init() {
        content = nil
        activity = .idle
        error = nil
        isEmpty = false
        loadedAt = nil
        failedAt = nil
        progress = nil
        wasCancelled = false
        runtime = LoadingRuntime()
    }

    /// Whether content has been loaded.
    public var hasContent: Bool { content != nil }

    /// Whether anything is in flight.
    public var isLoading: Bool { activity != .idle }

    /// Forgets what belonged to the previous resource — content, emptiness, error and
    /// times — as a load of another resource starts.
    mutating func clearForAnotherResource() {
        content = nil
        isEmpty = false
        error = nil
        loadedAt = nil
        failedAt = nil
    }

    /// Whether this is the unloaded state, as ``init()`` makes it.
    var isUnloaded: Bool {
        content == nil && activity == .idle && error == nil && !isEmpty && loadedAt == nil
            && failedAt == nil && progress == nil && !wasCancelled
    }

    /// Returns to the unloaded state, keeping the owner's bookkeeping.
    mutating func reset() {
        let runtime = self.runtime
        self = LoadingState()
        self.runtime = runtime
    }

    /// This state without the owner's bookkeeping: what hooks and observers receive.
    var detached: LoadingState {
        var copy = self
        copy.runtime = nil
        return copy
    }
}

// MARK: - where Value: Equatable

extension LoadingState: Equatable where Value: Equatable {
    /// Two states are equal when everything they tell is; bookkeeping is ignored.
    ///
    /// - Parameters:
    ///   - lhs: One state.
    ///   - rhs: The other.
    /// - Returns: Whether their content, activity, error, emptiness, times, progress
    ///   and cancellation are equal.
    public static func == (lhs: LoadingState, rhs: LoadingState) -> Bool {
        lhs.content == rhs.content && lhs.activity == rhs.activity && lhs.error == rhs.error
            && lhs.isEmpty == rhs.isEmpty && lhs.loadedAt == rhs.loadedAt
            && lhs.failedAt == rhs.failedAt && lhs.progress == rhs.progress
            && lhs.wasCancelled == rhs.wasCancelled
    }
}
