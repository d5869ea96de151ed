import LoadingKitNetworking
import Synchronization

/// The numbers of operations, unique in the process, so that an operation of a
/// runtime that was replaced is never taken for one of its successor.
private let operationNumbers = Atomic<UInt64>(0)

/// The bookkeeping behind one loader's state: which operation is current, its flight,
/// the last resource, which resource the state belongs to, and the observers of
/// `states`.
///
/// Only the loader's own stored state holds it, and no flight does. When the loader
/// is released the runtime goes too, cancels whatever is in flight and ends the
/// observers. When the conformer assigns a new state while it lives on, the runtime
/// also cancels its flight, but hands its observers over to the loader.
final class LoadingRuntime<Value: Sendable>: Sendable {
    typealias Observer = AsyncStream<LoadingState<Value>>.Continuation

    private struct State {
        var generation: UInt64 = 0
        var flight: LoadFlight?
        /// Whether the current flight's awaiting task was cancelled.
        var flightCancelled = false
        var lastResource: Resource<Value>?
        var stateIdentity: ResourceIdentity?
        var identities = ItemIdentities.unknown
        var contentValidators: Validators?
        var contentDirectives: CacheDirectives?
        var nextObserverID = 0
        var observers: [Int: Observer] = [:]
    }

    private let state = Locked(State())
    /// Gives the observers to the loader, when it still lives; `false` when it is gone.
    private let handOver: @Sendable ([Observer]) -> Bool

    /// Creates the runtime of a loader.
    ///
    /// - Parameter handOver: Takes the observers when the runtime goes while its
    ///   loader lives on; returns `false` when the loader is gone.
    init(handOver: @escaping @Sendable ([Observer]) -> Bool) {
        self.handOver = handOver
    }

    deinit {
        let (flight, observers) = state.withLock { ($0.flight, Array($0.observers.values)) }
        flight?.cancel()
        guard !handOver(observers) else { return }
        for observer in observers {
            observer.finish()
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
            state.contentValidators = nil
            state.contentDirectives = nil
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
