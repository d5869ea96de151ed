import LoadingKitNetworking

/// The bookkeeping behind one loader's state: which operation is current, its flight,
/// the last resource, which resource the state belongs to, and the observers of
/// `states`.
///
/// Only the loader's own stored state holds it, and no flight does, so when the
/// loader is released the runtime goes too and cancels whatever is in flight.
final class LoadingRuntime<Value: Sendable>: Sendable {
    private struct State {
        var generation: UInt64 = 0
        var flight: LoadFlight?
        /// Whether the current flight's awaiting task was cancelled.
        var flightCancelled = false
        var lastResource: Resource<Value>?
        var stateIdentity: ResourceIdentity?
        var identities: (any Sendable)?
        var contentValidators: Validators?
        var contentDirectives: CacheDirectives?
        var nextObserverID = 0
        var observers: [Int: AsyncStream<LoadingState<Value>>.Continuation] = [:]
    }

    private let state = Locked(State())

    deinit {
        let (flight, observers) = state.withLock { ($0.flight, Array($0.observers.values)) }
        flight?.cancel()
        for observer in observers {
            observer.finish()
        }
    }

    // MARK: - Operations

    /// Makes a new operation current, cancelling the one before; returns its number.
    func begin() -> UInt64 {
        let (generation, previous) = state.withLock { state in
            state.generation += 1
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
        let flight = state.withLock { state in
            state.generation += 1
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

    /// The identifiers of the content's items, kept by pagination to drop duplicates;
    /// `nil` whenever the content changed otherwise. Take it out before changing it,
    /// so that it is changed in place.
    var identities: (any Sendable)? {
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

    /// Removes and returns the identifiers, leaving `nil`.
    func takeIdentities() -> (any Sendable)? {
        state.withLock { state in
            defer { state.identities = nil }
            return state.identities
        }
    }

    // MARK: - Observers

    /// A new stream of states that starts with `current`.
    func observe(startingWith current: LoadingState<Value>) -> AsyncStream<LoadingState<Value>> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: LoadingState<Value>.self,
            bufferingPolicy: .bufferingNewest(64)
        )
        let id = state.withLock { state in
            defer { state.nextObserverID += 1 }
            state.observers[state.nextObserverID] = continuation
            return state.nextObserverID
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { _ = $0.observers.removeValue(forKey: id) }
        }
        continuation.yield(current)
        return stream
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
