import LoadingKitNetworking
import Synchronization

/// The bookkeeping behind one loader's state: which operation is current, its task,
/// the last resource, and the observers of `states`.
///
/// Only the loader's own stored state holds it, and the task never does, so when the
/// loader is released the runtime goes too and cancels whatever is in flight.
final class LoadingRuntime<Value: Sendable>: Sendable {
    private struct State {
        var generation: UInt64 = 0
        var task: Task<Void, Never>?
        var lastResource: Resource<Value>?
        var identities: (any Sendable)?
        var contentValidators: Validators?
        var nextObserverID = 0
        var observers: [Int: AsyncStream<LoadingState<Value>>.Continuation] = [:]
    }

    private let state = Mutex(State())

    deinit {
        let (task, observers) = state.withLock { ($0.task, Array($0.observers.values)) }
        task?.cancel()
        for observer in observers {
            observer.finish()
        }
    }

    // MARK: - Operations

    /// Makes a new operation current, cancelling the one before; returns its number.
    func begin() -> UInt64 {
        let (generation, previous) = state.withLock { state in
            state.generation += 1
            defer { state.task = nil }
            return (state.generation, state.task)
        }
        previous?.cancel()
        return generation
    }

    /// Records the task of operation `generation`, unless it is no longer current.
    func attach(_ task: Task<Void, Never>, to generation: UInt64) {
        state.withLock { state in
            if state.generation == generation {
                state.task = task
            }
        }
    }

    /// Whether operation `generation` is still the current one.
    func isCurrent(_ generation: UInt64) -> Bool {
        state.withLock { $0.generation == generation }
    }

    /// Ends operation `generation`; returns whether it was current, so its outcome
    /// may be applied.
    func end(_ generation: UInt64) -> Bool {
        state.withLock { state in
            guard state.generation == generation else { return false }
            state.task = nil
            return true
        }
    }

    /// Cancels the current operation, so that its outcome is never applied; returns
    /// whether one was in flight.
    func cancel() -> Bool {
        let task = state.withLock { state in
            state.generation += 1
            defer { state.task = nil }
            return state.task
        }
        task?.cancel()
        return task != nil
    }

    /// The task of the current operation, if one is in flight.
    var currentTask: Task<Void, Never>? { state.withLock { $0.task } }

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

    /// The validators the content came with, when a plain load applied it.
    var contentValidators: Validators? {
        get { state.withLock { $0.contentValidators } }
        set { state.withLock { $0.contentValidators = newValue } }
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
        let observers = state.withLock { Array($0.observers.values) }
        for observer in observers {
            observer.yield(loadingState)
        }
    }
}
