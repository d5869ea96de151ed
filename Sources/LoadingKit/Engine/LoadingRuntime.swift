import LoadingKitNetworking
import Synchronization

/// The numbers of operations, unique in the process, so that an operation of a
/// runtime that was replaced is never taken for one of its successor.
private let operationNumbers = Atomic<UInt64>(0)

/// The bookkeeping behind one loader's state: which operation is current, its flight,
/// the last resource, which resource the state belongs to, and the observers of
/// `states`.
///
/// Every `LoadingState()` comes with one, so that nothing writes the state to create
/// it; the first loader that uses it owns it. It rides in the state because the
/// loader's stored state is the one thing the kit can count on the loader to own: so
/// it ends with the loader, which cancels whatever is in flight and ends the
/// observers. Copies the kit hands out leave it behind (``LoadingState/detached``).
/// When the conformer assigns a new state while it lives on, the runtime also cancels
/// its flight, but hands its observers over to the loader.
final class LoadingRuntime<Value: Sendable>: Sendable {
    typealias Observer = AsyncStream<LoadingState<Value>>.Continuation
    /// Gives the observers to the loader, when it still lives; `false` when it is gone.
    typealias HandOver = @Sendable ([Observer]) -> Bool

    /// Which loader owns the runtime.
    private enum Owner {
        case none
        case loader(weak: Weak, handOver: HandOver)
    }

    /// A weak reference to a loader.
    private struct Weak {
        weak var object: AnyObject?
    }

    private struct State {
        var owner = Owner.none
        var generation: UInt64 = 0
        var flight: LoadFlight?
        /// Whether the current flight's awaiting task was cancelled.
        var flightCancelled = false
        var lastResource: Resource<Value>?
        var stateIdentity: ResourceIdentity?
        var identities = ItemIdentities.unknown
        var removedItems = ErasedIdentities(set: [])
        var editCount: UInt64 = 0
        var contentValidators: Validators?
        var contentDirectives: CacheDirectives?
        var contentVersion: UInt64?
        var mirrorsStoredValue = false
        var subscription: (any AnyObject & Sendable)?
        var nextObserverID = 0
        var observers: [Int: Observer] = [:]
    }

    private let state = Locked(State())

    /// Creates a runtime that no loader owns yet.
    init() {}

    deinit {
        let (flight, observers, owner) = state.withLock {
            ($0.flight, Array($0.observers.values), $0.owner)
        }
        flight?.cancel()
        if case .loader(_, let handOver) = owner, handOver(observers) {
            return
        }
        for observer in observers {
            observer.finish()
        }
    }

    /// Makes `loader` the owner, unless another loader owned the runtime (a state
    /// copied from one loader to another); returns whether `loader` owns it.
    ///
    /// - Parameters:
    ///   - loader: The loader whose state holds the runtime.
    ///   - handOver: Makes the hand-over of the observers, should the runtime go
    ///     while the loader lives on.
    func claim(for loader: AnyObject, handOver: () -> HandOver) -> Bool {
        state.withLock { state in
            switch state.owner {
            case .loader(let owner, _):
                return owner.object === loader
            case .none:
                state.owner = .loader(weak: Weak(object: loader), handOver: handOver())
                return true
            }
        }
    }

    // MARK: - Operations

    /// Makes a new operation current, cancelling the one before; returns its number.
    func begin() -> UInt64 {
        let number = operationNumbers.add(1, ordering: .relaxed).newValue
        let (generation, previous) = state.withLock { state in
            state.generation = number
            state.flightCancelled = false
            defer { state.flight = nil }
            return (state.generation, state.flight)
        }
        previous?.cancel()
        return generation
    }

    /// Records the flight of the current operation, unless a newer one began.
    func attach(_ flight: LoadFlight) {
        let stale = state.withLock { state in
            guard state.generation == flight.generation else { return true }
            state.flight = flight
            return false
        }
        if stale {
            flight.cancel()
        }
    }

    /// Whether operation `generation` is still the current one.
    func isCurrent(_ generation: UInt64) -> Bool {
        state.withLock { $0.generation == generation }
    }

    /// How an operation ended, for whoever waited for it.
    enum Ending {
        /// It is current and its outcome is to be applied.
        case current
        /// It is current, but the task awaiting it was cancelled: report that.
        case cancelled
        /// A newer operation, a cancellation or another waiter ended it already.
        case over
    }

    /// Ends operation `generation`, so that its outcome is applied or its
    /// cancellation reported exactly once.
    func end(_ generation: UInt64) -> Ending {
        state.withLock { state in
            guard state.generation == generation, state.flight?.generation == generation else {
                return .over
            }
            state.flight = nil
            return state.flightCancelled ? .cancelled : .current
        }
    }

    /// Records that the task awaiting operation `generation` was cancelled, so that its
    /// outcome is never applied, whenever it arrives.
    func cancelAwaited(_ generation: UInt64) {
        state.withLock { state in
            if state.generation == generation {
                state.flightCancelled = true
            }
        }
    }

    /// Cancels the current operation, so that its outcome is never applied; returns
    /// whether one was in flight.
    func cancel() -> Bool {
        let number = operationNumbers.add(1, ordering: .relaxed).newValue
        let flight = state.withLock { state in
            state.generation = number
            defer { state.flight = nil }
            return state.flight
        }
        flight?.cancel()
        return flight != nil
    }

    /// The current operation, if one is in flight.
    var currentFlight: LoadFlight? { state.withLock { $0.flight } }

    /// The current operation, if one is in flight and its awaiting task was not
    /// cancelled: the load whose outcome will be applied.
    var awaitedFlight: LoadFlight? {
        state.withLock { $0.flightCancelled ? nil : $0.flight }
    }

    /// The resource the loader last loaded.
    var lastResource: Resource<Value>? {
        get { state.withLock { $0.lastResource } }
        set { state.withLock { $0.lastResource = newValue } }
    }

    /// The identifiers of the content's items, kept by pagination to drop duplicates.
    /// Take them out before changing them, so that they are changed in place.
    var identities: ItemIdentities {
        get { state.withLock { $0.identities } }
        set { state.withLock { $0.identities = newValue } }
    }

    /// The resource the state's content, error and times belong to: the one last
    /// started by a load or a first page.
    var stateIdentity: ResourceIdentity? {
        get { state.withLock { $0.stateIdentity } }
        set { state.withLock { $0.stateIdentity = newValue } }
    }

    /// The validators the content came with, when a plain load applied it.
    var contentValidators: Validators? {
        get { state.withLock { $0.contentValidators } }
        set { state.withLock { $0.contentValidators = newValue } }
    }

    /// What the response of the content said about its freshness.
    var contentDirectives: CacheDirectives? {
        get { state.withLock { $0.contentDirectives } }
        set { state.withLock { $0.contentDirectives = newValue } }
    }

    /// The version of the stored value the content is, when it is one.
    var contentVersion: UInt64? {
        get { state.withLock { $0.contentVersion } }
        set { state.withLock { $0.contentVersion = newValue } }
    }

    /// Whether the content is the stored value of the state's resource — a plain load —
    /// rather than pages or refreshes built on it.
    var mirrorsStoredValue: Bool {
        get { state.withLock { $0.mirrorsStoredValue } }
        set { state.withLock { $0.mirrorsStoredValue = newValue } }
    }

    /// The loader's interest in the stored value of the resource it shows.
    var subscription: (any AnyObject & Sendable)? {
        get { state.withLock { $0.subscription } }
        set { state.withLock { $0.subscription = newValue } }
    }

    /// The identifiers of the items local edits removed since the content was last
    /// replaced as a whole: a merge does not bring them back.
    var removedItems: Set<AnyHashable> { state.withLock { $0.removedItems.set } }

    /// How many local edits the content has had, so that a merge computed before one
    /// is computed again.
    var editCount: UInt64 { state.withLock { $0.editCount } }

    /// Records a local edit that removed and inserted the items with these
    /// identifiers; the identifiers kept for pagination are computed again.
    func noteEdit(removed: [AnyHashable], inserted: [AnyHashable]) {
        state.withLock { state in
            state.removedItems.set.formUnion(removed)
            state.removedItems.set.subtract(inserted)
            state.editCount += 1
            state.identities = .unknown
        }
    }

    /// Forgets the items local edits removed, as the content is replaced as a whole.
    func forgetRemovedItems() {
        state.withLock { state in
            if !state.removedItems.set.isEmpty {
                state.removedItems.set = []
            }
        }
    }

    /// Forgets the validators, freshness, stored version and item identifiers of the
    /// content, as a load of another resource starts.
    func forgetContentMetadata() {
        state.withLock { state in
            state.contentValidators = nil
            state.contentDirectives = nil
            state.contentVersion = nil
            state.mirrorsStoredValue = false
            state.identities = .unknown
            state.removedItems.set = []
        }
    }

    /// Removes and returns the identifiers, leaving them unknown.
    func takeIdentities() -> ItemIdentities {
        state.withLock { state in
            defer { state.identities = .unknown }
            return state.identities
        }
    }

    /// Forgets which resource the state belongs to and everything learnt of it.
    func forgetResource() {
        state.withLock { state in
            state.lastResource = nil
            state.stateIdentity = nil
            state.identities = .unknown
            state.removedItems.set = []
            state.contentValidators = nil
            state.contentDirectives = nil
            state.contentVersion = nil
            state.mirrorsStoredValue = false
            state.subscription = nil
        }
    }

    // MARK: - Observers

    /// A new stream of states that starts with `current` and keeps every state until
    /// it is read.
    func observe(startingWith current: LoadingState<Value>) -> AsyncStream<LoadingState<Value>> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: LoadingState<Value>.self,
            bufferingPolicy: .unbounded
        )
        adopt([continuation])
        continuation.yield(current)
        return stream
    }

    /// Registers `observers`, removing each when it stops iterating.
    func adopt(_ observers: [Observer]) {
        for observer in observers {
            let id = state.withLock { state in
                defer { state.nextObserverID += 1 }
                state.observers[state.nextObserverID] = observer
                return state.nextObserverID
            }
            observer.onTermination = { [weak self] _ in
                self?.state.withLock { _ = $0.observers.removeValue(forKey: id) }
            }
        }
    }

    /// How many observers are registered.
    var observerCount: Int { state.withLock { $0.observers.count } }

    /// Sends `state` to every observer.
    func broadcast(_ loadingState: LoadingState<Value>) {
        let observers = state.withLock { $0.observers.isEmpty ? [] : Array($0.observers.values) }
        for observer in observers {
            observer.yield(loadingState)
        }
    }
}

extension Loading {
    /// The loader's bookkeeping: the runtime its state came with, claimed on first use.
    /// A state without one, or with another loader's — a copy handed out, or copied from
    /// another loader, then assigned — gets a runtime of its own.
    var loadingRuntime: LoadingRuntime<ResourceType> {
        // The hand-over is made in a closure of its own: passing the method itself
        // allocated a context on every call.
        if let runtime = loadingState.runtime,
            runtime.claim(for: self, handOver: { makeHandOver() })
        {
            return runtime
        }
        let runtime = LoadingRuntime<ResourceType>()
        _ = runtime.claim(for: self, handOver: { makeHandOver() })
        loadingState.runtime = runtime
        return runtime
    }

    /// The hand-over of the observers of a runtime that goes while this loader lives.
    private func makeHandOver() -> LoadingRuntime<ResourceType>.HandOver {
        { [weak self] observers in
            guard self != nil else { return false }
            Task { @MainActor [weak self] in
                guard let self else {
                    for observer in observers {
                        observer.finish()
                    }
                    return
                }
                self.adoptObservers(observers)
            }
            return true
        }
    }

    /// Takes over the observers of a state the conformer replaced that still listen,
    /// and shows them the new state. What a refinement keeps beside the state, such as
    /// pages, is forgotten unless a load of a resource began on the new state since.
    private func adoptObservers(_ observers: [LoadingRuntime<ResourceType>.Observer]) {
        let runtime = loadingRuntime
        if runtime.stateIdentity == nil {
            Self.loadingLifecycle.forget(self)
        }
        let current = loadingState.detached
        let listening = observers.filter { observer in
            if case .terminated = observer.yield(current) { return false }
            return true
        }
        runtime.adopt(listening)
    }
}
