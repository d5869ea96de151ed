import LoadingKitNetworking
import Observation
import Synchronization

/// What a screen stores to load content: the one ``LoadingState`` it shows and all of
/// the bookkeeping behind it — the operation in flight, the resource the state belongs
/// to, the content's validators and freshness, item identities, the store
/// subscription, the observers, and a paginated list's ``PaginationState``.
///
/// ```swift
/// @MainActor @Observable final class EpisodeScreen: Loading {
///     let loading = LoadingCore<Episode>()
///     private(set) var title = ""
///     func configure(value: Episode) { title = value.title }
/// }
///
/// await screen.load(resource: Episode.resource(id: 1))
/// screen.loading.state.placeholder  // .content; also screen.loadingState
/// ```
///
/// The core is the screen's: when it goes — with the screen that holds it — the load in
/// flight is cancelled and every stream of ``Loading/states`` ends, whatever copies of
/// the state exist. It is observable: a SwiftUI view or `withObservationTracking`
/// reading ``state`` sees it change.
@MainActor
public final class LoadingCore<Value: Sendable>: Observable {
    typealias Observer = AsyncStream<LoadingState<Value>>.Continuation

    /// The state the screen shows. Only the kit changes it, through its transitions.
    public var state: LoadingState<Value> {
        mayBeTracked = true
        registrar.access(self, keyPath: stateKey)
        return current
    }

    /// ``state`` as the kit reads it: no observation is registered.
    private(set) var current = LoadingState<Value>()
    private let registrar = ObservationRegistrar()
    /// Whether observation may track the state or the pages: it can only once one was
    /// read through the registrar. Until then a change tells the registrar nothing.
    private var mayBeTracked = false
    /// The key paths observers are told about, made once per value type: in a generic
    /// class, each `\.state` written in a function is a new key path, built at every
    /// call.
    private lazy var stateKey = unsafeDowncast(
        Self.keyPaths.state,
        to: KeyPath<LoadingCore, LoadingState<Value>>.self
    )
    private lazy var pagesKey = unsafeDowncast(
        Self.keyPaths.pages,
        to: KeyPath<LoadingCore, AnyObject?>.self
    )

    /// The key paths of this core type, made at its first use.
    private static var keyPaths: CoreKeyPaths {
        let type = ObjectIdentifier(Self.self)
        if let made = coreKeyPaths[type] {
            return made
        }
        let made = CoreKeyPaths(state: \LoadingCore.state, pages: \LoadingCore.pages)
        coreKeyPaths[type] = made
        return made
    }

    // MARK: - Bookkeeping (main actor only)

    /// The resource the loader last loaded.
    var lastResource: Resource<Value>?
    /// The resource the state's content, error and times belong to: the one last
    /// started by a load or a first page.
    var stateIdentity: ResourceIdentity?
    /// The identifiers of the content's items, kept by pagination to drop duplicates.
    var identities = ItemIdentities.unknown
    /// The identifiers of the items local edits removed since the content was last
    /// replaced as a whole: a merge does not bring them back.
    private(set) var removedItems: Set<AnyHashable> = []
    /// How many local edits the content has had, so that a merge computed before one
    /// is computed again.
    private(set) var editCount: UInt64 = 0
    /// What the screen knows of its content, changed only by ``record(_:)``.
    private(set) var contentRecord = ContentRecord()
    /// The validators the content came with.
    var contentValidators: Validators? { contentRecord.validators }
    /// What the response of the content said about its freshness.
    var contentDirectives: CacheDirectives? { contentRecord.directives }
    /// The version of the stored value the content is, when it is one.
    var contentVersion: UInt64? { contentRecord.version }
    /// When that version was received or last confirmed, on the webservice's clock.
    var contentStoredAt: ContinuousClock.Instant? { contentRecord.storedAt }
    /// When another screen's answer last confirmed the content, on the loader's clock.
    var confirmedAt: ContinuousClock.Instant? { contentRecord.confirmedAt }
    /// When the last failure was recorded, on the webservice's clock.
    var failedAtOnStoreClock: ContinuousClock.Instant? { contentRecord.failedAtOnStoreClock }
    /// Whether the content is the stored value of the state's resource.
    var mirrorsStoredValue: Bool { contentRecord.mirrorsStoredValue }

    /// Records what happened to the content: the one way its record changes.
    ///
    /// - Parameter event: What happened.
    func record(_ event: ContentRecord.Event) {
        contentRecord.reduce(event)
    }
    /// The loader's interest in the stored value of the resource it shows.
    var subscription: (any AnyObject & Sendable)?
    /// A paginated list's window of pages (a ``PaginationBox``), made on first use.
    private var pages: AnyObject?
    /// How the screen follows a live resource, kept while its view is gone so that it
    /// follows again when the view is back; `nil` when it follows none.
    var liveFollow: LiveFollow?

    /// The number of the current operation: each new one, and each cancellation,
    /// takes the next. Changed only by `LoadingCore+Operations.swift`.
    var generation: UInt64 = 0
    /// The operation in flight, if one is. Changed only by
    /// `LoadingCore+Operations.swift`.
    var currentOperation: LoadOperation?
    /// The number of the operation whose awaiting task was cancelled, marked from any
    /// thread by the task's cancellation handler; 0 for none.
    let cancelledAwait = Atomic<UInt64>(0)
    /// The one cell that other threads touch: the observers, whose streams end from
    /// any thread, the pages held and the revalidation wait. Only the files of
    /// `Core/` use it.
    let guarded = Locked(Guarded())
    /// Whether `guarded` may hold observers: the main actor alone adds them, so while
    /// this is `false` there is none to tell, and no lock is taken.
    var mayHaveObservers = false
    /// Whether `guarded` holds pages: the main actor alone adds and takes them.
    var holdsDeferredPages = false
    /// Whether the loader's settings were checked for near misses (``SettingsCheck``).
    private var settingsChecked = false

    /// Checks, once, the loader's type for a setting declared with another type than
    /// the requirement's.
    func checkSettings(of loader: some Loading) {
        guard !settingsChecked else { return }
        settingsChecked = true
        SettingsCheck.run(for: loader)
    }

    /// A core with the unloaded state and nothing in flight.
    public nonisolated init() {}

    deinit {
        let (observers, pages, poll, live) = guarded.withLock {
            (Array($0.observers.values), $0.deferredPages, $0.poll, $0.liveMembership)
        }
        currentOperation?.cancel()
        poll?.cancel()
        live?.end()
        for page in pages {
            page.abandon()
        }
        for observer in observers {
            observer.finish()
        }
    }

    // MARK: - Changing the state

    /// Changes the state with `transition`, as one observable change.
    func change(_ transition: (inout LoadingState<Value>) -> Void) {
        guard mayBeTracked else { return transition(&current) }
        registrar.withMutation(of: self, keyPath: stateKey) { transition(&current) }
    }

    /// Changes the state with `transition`, then tells
    /// ``Loading/loadingStateDidChange(from:to:)`` and every observer.
    ///
    /// The previous state is kept without its content while `transition` runs, so that
    /// the content is uniquely referenced and appending a page does not copy it.
    ///
    /// - Parameters:
    ///   - loader: The screen that holds the core.
    ///   - transition: A transition of the state.
    func update(
        for loader: some Loading<Value>,
        _ transition: (inout LoadingState<Value>) -> Void
    ) {
        var previous = current
        previous.stage { $0 = nil }
        change(transition)
        let published = current
        previous.stage { $0 = published.content }
        loader.loadingStateDidChange(from: previous, to: published)
        if mayHaveObservers {
            broadcast()
        }
    }

    /// Hands `kind`, about a load of `identity` (by default the resource the state
    /// shows), to the monitor of the screen's webservice; builds nothing when there is
    /// none.
    ///
    /// - Parameters:
    ///   - kind: What happened.
    ///   - identity: The resource it happened to.
    ///   - loader: The screen.
    func report<Loader: Loading>(
        _ kind: @autoclosure () -> LoadingEvent.Kind,
        about identity: ResourceIdentity? = nil,
        for loader: Loader
    ) {
        let webservice = loader.webservice
        guard webservice.isMonitored else { return }
        webservice.report(kind(), about: identity ?? stateIdentity, loader: Loader.self)
    }

    /// Changes the state with `transition` where nobody sees it: a list built in place
    /// of the content and put back in the same main-actor turn.
    func stage(_ transition: (inout LoadingState<Value>) -> Void) {
        transition(&current)
    }

    // MARK: - Content bookkeeping

    /// Records a local edit that removed and inserted the items with these
    /// identifiers; the identifiers kept for pagination are computed again.
    func noteEdit(removed: [AnyHashable], inserted: [AnyHashable]) {
        removedItems.formUnion(removed)
        removedItems.subtract(inserted)
        editCount += 1
        identities = .unknown
    }

    /// Forgets the items local edits removed, as the content is replaced as a whole.
    func forgetRemovedItems() {
        if !removedItems.isEmpty {
            removedItems = []
        }
    }

    /// Forgets the validators, freshness, stored version and item identifiers of the
    /// content, as a load of another resource starts.
    func forgetContentMetadata() {
        record(.resourceSwitched)
        identities = .unknown
        removedItems = []
    }

    /// Whether ``LoadPolicy/ifNeeded`` finds nothing to do: the content is fresh, or
    /// the last load failed less than ``Loading/failureRetryInterval`` ago. Freshness
    /// is ``Loading/maxAge`` when set, else what the content's response said.
    func isContentCurrent(for loader: some Loading<Value>) -> Bool {
        let now = loader.loadingClock.continuousNow
        // The previous resource's content is never current for this one.
        if current.isPreviousContent {
            return false
        }
        if current.error != nil || current.content == nil {
            guard let failedAt = current.failedAt else { return false }
            return failedAt.duration(to: now) < loader.failureRetryInterval
        }
        guard let loadedAt = current.loadedAt else { return true }
        if storedValueIsStale(for: loader) {
            return false
        }
        let age = loadedAt.duration(to: now)
        if let maxAge = loader.maxAge {
            return age < maxAge
        }
        if contentDirectives?.requiresRevalidation == true
            || contentDirectives?.forbidsStoring == true
        {
            return false
        }
        return contentDirectives?.freshnessLifetime.map { age < $0 } ?? true
    }

    /// The activity a new load under `policy` shows.
    func activity(for policy: LoadPolicy) -> LoadingActivity {
        switch policy.kind {
        case .force: .loading
        case .background: .reloading
        case .ifNeeded: current.content == nil ? .loading : .reloading
        }
    }

    /// Removes and returns the identifiers, leaving them unknown.
    func takeIdentities() -> ItemIdentities {
        defer { identities = .unknown }
        return identities
    }

    /// Forgets which resource the state belongs to and everything learnt of it.
    func forgetResource() {
        forgetContentMetadata()
        lastResource = nil
        stateIdentity = nil
        subscription = nil
    }

    // MARK: - Pagination

    /// The window of pages of a list whose pages `Cursor` asks for.
    func pagination<Cursor>(of _: Cursor.Type) -> PaginationState<Cursor> {
        mayBeTracked = true
        registrar.access(self, keyPath: pagesKey)
        return currentPagination(of: Cursor.self)
    }

    /// ``pagination(of:)`` as the kit reads it: no observation is registered.
    func currentPagination<Cursor>(of _: Cursor.Type) -> PaginationState<Cursor> {
        (pages as? PaginationBox<Cursor>)?.state ?? PaginationState()
    }

    /// Changes the window of pages in place, as one observable change.
    func changePagination<Cursor, Result>(
        of _: Cursor.Type,
        _ change: (inout PaginationState<Cursor>) -> Result
    ) -> Result {
        let box: PaginationBox<Cursor>
        if let kept = pages as? PaginationBox<Cursor> {
            box = kept
        } else {
            box = PaginationBox()
            pages = box
        }
        guard mayBeTracked else { return change(&box.state) }
        return registrar.withMutation(of: self, keyPath: pagesKey) { change(&box.state) }
    }
}

/// A list's window of pages, held by reference so that a page changes it in place.
final class PaginationBox<Cursor: Sendable> {
    var state = PaginationState<Cursor>()
}

/// The key paths a type of core tells observers about.
private struct CoreKeyPaths {
    let state: AnyKeyPath
    let pages: AnyKeyPath
}

/// The key paths of each type of core made so far, by core type.
@MainActor private var coreKeyPaths: [ObjectIdentifier: CoreKeyPaths] = [:]
