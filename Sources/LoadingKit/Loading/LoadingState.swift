/// Everything a screen needs to know about its content at once: what was last
/// loaded, what is in flight, the last error, whether the content is empty, and when
/// it was loaded.
///
/// ```swift
/// switch screen.loadingState.placeholder {
/// case .loading: showSpinner()
/// case .empty: showEmptyMessage()
/// case .error(let error): showError(error.description)
/// case .content: showRows()
/// case .blank: break
/// }
/// ```
///
/// A plain value: the screen's ``LoadingCore`` owns the current one and changes it
/// only through the named transitions below; every copy is just a snapshot.
public struct LoadingState<Value: Sendable>: Sendable {
    /// The content last applied, kept through later reloads and failures.
    public private(set) var content: Value?
    /// What is in flight.
    public private(set) var activity: LoadingActivity
    /// The error of the last load that failed, until one succeeds. It stays
    /// readable while content is shown.
    public private(set) var error: LoadingError?
    /// Whether ``content`` is empty, as ``Loading/isEmpty(_:)`` judged it.
    public private(set) var isEmpty: Bool
    /// When ``content`` was last loaded or confirmed unchanged, by the loader's clock.
    public private(set) var loadedAt: ContinuousClock.Instant?
    /// When the last load failed, by the loader's clock; `nil` once one succeeds.
    public private(set) var failedAt: ContinuousClock.Instant?
    /// How much of the response in flight has arrived, from 0 to 1, when the
    /// transport reports it.
    public private(set) var progress: Double?
    /// Whether the last load ended because it was cancelled — by
    /// ``Loading/cancelLoading()``, by cancelling the task awaiting it, or by
    /// cancelling its ``LoadTask`` — rather than with a value or an error; `false`
    /// again once another load starts. Cancellation is never recorded as an error.
    public private(set) var wasCancelled: Bool
    /// Whether the content is the previous resource's, kept shown while a load of
    /// another resource runs (``LoadPolicy/keepingPreviousContent``): dim it, say.
    /// `false` once that resource's value applies; a failed or cancelled load leaves
    /// it shown, still marked.
    ///
    /// ```swift
    /// list.opacity(screen.loadingState.isPreviousContent ? 0.5 : 1)
    /// ```
    public private(set) var isPreviousContent: Bool
    /// The live stream the screen follows (``Loading/follow(_:)``): connecting,
    /// connected, reconnecting and when next, or stopped and why; `nil` while it
    /// follows none. Content already shown stays shown whatever the stream does.
    ///
    /// ```swift
    /// if case .reconnecting(let next)? = screen.loadingState.stream {
    ///     banner.text = "Reconnecting in \(next.delay)…"
    /// }
    /// ```
    public private(set) var stream: LiveConnectionState?

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
        isPreviousContent = false
        stream = nil
    }

    /// Whether content has been loaded.
    public var hasContent: Bool { content != nil }

    /// Whether anything is in flight.
    public var isLoading: Bool { activity != .idle }

    /// Whether content of the state's own resource is shown: content that is not the
    /// previous resource's.
    var showsOwnContent: Bool { content != nil && !isPreviousContent }

    /// Whether this is the unloaded state, as ``init()`` makes it.
    var isUnloaded: Bool {
        content == nil && activity == .idle && error == nil && !isEmpty && loadedAt == nil
            && failedAt == nil && progress == nil && !wasCancelled && !isPreviousContent
            && stream == nil
    }
}

// MARK: - Transitions

/// The only writes of a state: each one names what happened to the screen.
extension LoadingState {
    /// An operation started, showing `activity`; one of another resource first forgets
    /// what belonged to the previous resource: content, emptiness, error and times —
    /// or, `keepingPrevious`, only its error, the content staying shown as previous.
    mutating func begin(
        _ activity: LoadingActivity,
        forAnotherResource: Bool = false,
        keepingPrevious: Bool = false
    ) {
        if forAnotherResource, keepingPrevious, content != nil {
            isPreviousContent = true
            error = nil
            failedAt = nil
        } else if forAnotherResource {
            content = nil
            isEmpty = false
            error = nil
            loadedAt = nil
            failedAt = nil
            isPreviousContent = false
        }
        self.activity = activity
        progress = nil
        wasCancelled = false
    }

    /// Part of the response in flight arrived.
    mutating func progress(_ fraction: Double) {
        progress = fraction
    }

    /// An operation ended with `value` as the content, loaded at `now`.
    mutating func apply(_ value: Value, isEmpty: Bool, at now: ContinuousClock.Instant) {
        content = value
        self.isEmpty = isEmpty
        isPreviousContent = false
        confirm(at: now)
    }

    /// An operation ended with the content it staged in place — a page added, say —
    /// as the content, loaded at `now`.
    mutating func applyStaged(isEmpty: Bool, at now: ContinuousClock.Instant) {
        self.isEmpty = isEmpty
        isPreviousContent = false
        confirm(at: now)
    }

    /// An operation ended with the content confirmed unchanged at `now`.
    mutating func confirm(at now: ContinuousClock.Instant) {
        error = nil
        failedAt = nil
        activity = .idle
        progress = nil
        loadedAt = now
    }

    /// A stored value, loaded at `loadedAt`, is shown as the content; whatever is in
    /// flight goes on. The failure shown stays unless the value `answersFailure` —
    /// was received after it — for one received before (an optimistic change taken
    /// back, say) is no answer to it.
    mutating func show(
        _ value: Value,
        isEmpty: Bool,
        loadedAt: ContinuousClock.Instant,
        answersFailure: Bool
    ) {
        content = value
        self.isEmpty = isEmpty
        self.loadedAt = loadedAt
        if answersFailure {
            error = nil
            failedAt = nil
        }
        isPreviousContent = false
    }

    /// A local edit replaced the content; nothing else changes.
    mutating func edit(_ value: Value, isEmpty: Bool) {
        content = value
        self.isEmpty = isEmpty
    }

    /// An operation failed at `now`; `error` is what the state shows, `nil` when the
    /// failure is recorded elsewhere (a page's, in the pagination).
    mutating func fail(_ error: LoadingError?, at now: ContinuousClock.Instant) {
        if let error {
            self.error = error
        }
        failedAt = now
        activity = .idle
        progress = nil
    }

    /// An operation was cancelled: nothing in flight, the content as it was.
    mutating func cancel() {
        activity = .idle
        progress = nil
        wasCancelled = true
    }

    /// The live stream the screen follows changed its state, or the screen stopped
    /// following one (`nil`); the content and all else stay.
    mutating func follow(_ stream: LiveConnectionState?) {
        self.stream = stream
    }

    /// Back to the unloaded state.
    mutating func reset() {
        self = LoadingState()
    }

    /// Changes the content in place without anything else changing, before the
    /// transition that applies it — or puts it back: a page appended, a list built
    /// page by page.
    mutating func stage(_ change: (inout Value?) -> Void) {
        change(&content)
    }
}

// MARK: - where Value: Equatable

extension LoadingState: Equatable where Value: Equatable {}
