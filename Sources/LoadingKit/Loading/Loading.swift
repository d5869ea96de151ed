import LoadingKitNetworking

/// A type that shows content loaded from a resource: store one ``LoadingCore`` and
/// implement ``configure(value:)``; loading, reloading, cancellation, staleness
/// protection, empty and error handling come from the default implementations.
///
/// ```swift
/// @MainActor final class EpisodeScreen: Loading {
///     let loading = LoadingCore<Episode>()
///     private(set) var title = ""
///     func configure(value: Episode) { title = value.title }
/// }
///
/// let screen = EpisodeScreen()
/// await screen.load(resource: Episode.resource(id: 1))
/// screen.loadingState.placeholder  // .content
/// ```
///
/// Every requirement but the core and ``configure(value:)`` has a default that a
/// conformer may replace. The network work and the parse run off the main actor;
/// ``configure(value:)``, the hooks and every state change run on it.
///
/// A requirement with a default is replaced only by a member of its exact type and
/// signature: `let maxAge = Duration.seconds(60)` is a `Duration`, not the `Duration?`
/// ``maxAge`` is, so it compiles and the default is used. A stored setting declared
/// with another type is reported at the type's first load, as a
/// `settingIgnored` event and, in a debug build, on standard error; a computed one,
/// or a hook whose signature is misspelled, cannot be seen — copy the requirement's
/// declaration.
@MainActor
public protocol Loading<ResourceType>: AnyObject, Sendable {
    /// The value a load produces and ``configure(value:)`` receives.
    associatedtype ResourceType: Sendable

    /// The loader's core: its state and everything behind it. Store one, made with
    /// `LoadingCore()`, in a `let`; the kit does the rest. When it goes with the
    /// loader, the load in flight is cancelled and ``states`` end.
    var loading: LoadingCore<ResourceType> { get }

    /// Shows a newly loaded value. Called exactly once per value applied, on the main
    /// actor, after ``validate(_:)`` accepted it; never for a superseded or cancelled
    /// load, and for an empty value only when ``configuresEmptyValues`` is `true`.
    ///
    /// - Parameter value: The value loaded, validated and accepted.
    func configure(value: ResourceType)

    /// Called when the content shown is cleared: a load of another resource starts
    /// (unless it keeps the previous content, ``LoadPolicy/keepingPreviousContent``),
    /// or ``resetLoading()`` runs. Fields ``configure(value:)`` set still hold the old
    /// content then — clear them here, or read what a view shows from ``loadingState``,
    /// which is already empty. Called after the state changed. Default: does nothing;
    /// a near miss (another signature) compiles and is never called.
    ///
    /// ```swift
    /// func contentWasCleared() { title = "" }
    /// ```
    ///
    /// A hook whose name or signature is misspelled compiles and is never called.
    func contentWasCleared()

    /// The webservice loads go through. Default: `Webservice.shared`. Tests return a
    /// `Webservice(transport: MockTransport())`.
    var webservice: Webservice { get }

    /// The resource ``loadingDidAppear()`` and ``reload(policy:)`` load when no load
    /// has been made yet. Default: `nil`, so they reload the last resource loaded.
    ///
    /// Return the same resource each time: one made with an unnamed `map(_:)` or
    /// parse is a new resource on every call, which ``LoadPolicy/ifNeeded`` always
    /// loads, clearing what was shown. Name such a parse with
    /// `map(identifiedBy:_:)` or `identified(by:)`, or keep the resource in a property.
    var resource: Resource<ResourceType>? { get }

    /// Whether `value` counts as empty, which selects the empty placeholder. Default:
    /// `false`; for collections, `Collection.isEmpty`.
    ///
    /// ```swift
    /// func isEmpty(_ value: Inbox) -> Bool { value.threads.isEmpty }  // "No mail"
    /// ```
    ///
    /// - Parameter value: A loaded value.
    /// - Returns: Whether the empty placeholder shows for it.
    func isEmpty(_ value: ResourceType) -> Bool

    /// Whether ``configure(value:)`` is called for an empty value too. Default:
    /// `false` — the empty placeholder covers the view, so the old content is left
    /// configured and an empty value is only recorded in the state.
    var configuresEmptyValues: Bool { get }

    /// Post-processing that may still refuse a loaded value; what it throws fails the
    /// load as ``LoadingError/rejected(_:)``, keeping the content. Default: accepts
    /// every value.
    ///
    /// - Parameter value: The loaded value, before ``configure(value:)`` sees it.
    /// - Throws: Whatever refuses the value; the load fails with it as
    ///   ``LoadingError/rejected(_:)``.
    func validate(_ value: ResourceType) throws

    /// Called after every state change, with the states before and after: the
    /// conformer's own synchronous hook, for code that needs the transition itself —
    /// a UIKit screen animating from a spinner to rows, say. A SwiftUI view needs
    /// none of it: a view reading ``loadingState`` is redrawn when it changes. Observers outside the conformer use ``Loading/states``. The kit
    /// keeps no copy of the previous content — that would make every appended page
    /// copy the whole list — so `oldState.content` is the content after the change;
    /// the rest of `oldState` is as it was. Default: does nothing; a near miss
    /// (another signature) compiles and is never called.
    ///
    /// - Parameters:
    ///   - oldState: The state before the change, with the content after it.
    ///   - newState: The state after the change, as ``loadingState`` now holds it.
    func loadingStateDidChange(
        from oldState: LoadingState<ResourceType>,
        to newState: LoadingState<ResourceType>
    )

    /// Called once for every load that fails (cancellation is not a failure).
    /// Default: does nothing; a near miss (another signature) compiles and is never
    /// called.
    ///
    /// - Parameter error: Why the load failed, as the state records it.
    func loadDidFail(_ error: LoadingError)

    /// Called once for every load that was cancelled — by ``cancelLoading()``, by
    /// cancelling the task awaiting it, or by cancelling its ``LoadTask`` — after the
    /// state recorded it in ``LoadingState/wasCancelled``. A load superseded by a newer
    /// one is not reported. Default: does nothing; a near miss
    /// (another signature) compiles and is never called.
    func loadWasCancelled()

    /// Called after a refresh or a page changed the content, right after
    /// ``configure(value:)``, with what changed: the rows to insert or append, or a
    /// replacement. Default: does nothing; a near miss
    /// (another signature) compiles and is never called.
    ///
    /// - Parameter change: What changed in the content.
    func didApply(_ change: ContentChange)

    /// Whether ``loadingDidDisappear()`` cancels the load in flight. Default: `false`.
    var cancelsLoadingOnDisappear: Bool { get }

    /// How long loaded content stays fresh for ``LoadPolicy/ifNeeded``: older content
    /// is reloaded in the background while it stays shown (stale-while-revalidate).
    /// Default: `nil`, so the response's own `Cache-Control` (`max-age` less `Age`;
    /// `no-cache` and `no-store`, always stale) or `Expires` decides, and content whose
    /// response says nothing is fresh until reloaded. When set, it wins over the
    /// response.
    var maxAge: Duration? { get }

    /// How often the content is revalidated, in the background, while the screen
    /// lives and shows it: this long after each load ends, on ``loadingClock``. No
    /// timer runs before the first load, after ``loadingDidDisappear()`` (until
    /// ``loadingDidAppear()``) or once the screen is released. Default: `nil`, never.
    var revalidationInterval: Duration? { get }

    /// How long after a failure ``LoadPolicy/ifNeeded`` waits before loading again.
    /// Default: `.zero`, at once.
    var failureRetryInterval: Duration { get }

    /// The clock of load times and freshness: any `Clock<Duration>`. Default:
    /// `ContinuousClock()`.
    var loadingClock: any Clock<Duration> { get }
}

// MARK: - Default implementations

extension Loading {
    /// The state the loader shows: its core's ``LoadingCore/state``.
    public var loadingState: LoadingState<ResourceType> { loading.state }

    /// `Webservice.shared`.
    public var webservice: Webservice { .shared }

    /// `nil`: reload the last resource loaded.
    public var resource: Resource<ResourceType>? { nil }

    /// `Collection.isEmpty` when the value is a collection, else `false` — also for a
    /// generic conformer whose value type is only known to be a collection when it
    /// runs.
    ///
    /// - Parameter value: A loaded value.
    /// - Returns: Whether it is an empty collection.
    public func isEmpty(_ value: ResourceType) -> Bool {
        (value as? any Collection)?.isEmpty ?? false
    }

    /// `false`.
    public var configuresEmptyValues: Bool { false }

    /// Accepts every value.
    ///
    /// - Parameter value: The loaded value.
    /// - Throws: Nothing: every value is accepted.
    public func validate(_ value: ResourceType) throws {}

    /// Does nothing.
    ///
    /// - Parameters:
    ///   - oldState: The state before the change.
    ///   - newState: The state after the change.
    public func loadingStateDidChange(
        from oldState: LoadingState<ResourceType>,
        to newState: LoadingState<ResourceType>
    ) {}

    /// Does nothing.
    ///
    /// - Parameter error: Why the load failed.
    public func loadDidFail(_ error: LoadingError) {}

    /// Does nothing.
    public func loadWasCancelled() {}

    /// Does nothing.
    public func contentWasCleared() {}

    /// Does nothing.
    ///
    /// - Parameter change: What changed in the content.
    public func didApply(_ change: ContentChange) {}

    /// `false`.
    public var cancelsLoadingOnDisappear: Bool { false }

    /// `nil`: the response's cache directives decide.
    public var maxAge: Duration? { nil }

    /// `.zero`.
    public var failureRetryInterval: Duration { .zero }

    /// `nil`: the content is revalidated only when asked.
    public var revalidationInterval: Duration? { nil }

    /// `ContinuousClock()`.
    public var loadingClock: any Clock<Duration> { ContinuousClock() }
}

extension Loading where ResourceType: Collection {
    /// `Collection.isEmpty`.
    ///
    /// - Parameter value: A loaded collection.
    /// - Returns: Whether it has no elements.
    public func isEmpty(_ value: ResourceType) -> Bool { value.isEmpty }
}
