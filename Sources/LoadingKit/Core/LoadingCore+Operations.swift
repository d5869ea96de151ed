import LoadingKitNetworking
import Synchronization

/// The operation in flight, on the main actor, with the one mark other threads make
/// on it (a cancelled await, in an atomic); and the observers and the pages held,
/// which other threads touch, behind the core's one lock.
///
/// Why no outcome is applied twice, late or after a cancellation: an operation is
/// applied only after ``end(_:)`` cleared it, on the main actor, so one waiter of the
/// operation wins. A newer operation (``begin()``) or a cancellation (``cancel()``)
/// replaces the generation, so a value that arrives later finds its operation over;
/// then the operation's waits end at once (``LoadOperation/cancel``), and each finds it
/// over. A cancelled awaiting task marks its generation (``cancelAwaited(_:)``, from
/// any thread, in an atomic) before the fetch is left, so its value, whenever it
/// arrives, ends as a cancellation. `deinit` cancels the operation: the screen is gone.
/// A page asked for while an operation is current waits in the lock's cell and starts
/// once the operation has been applied (``startDeferredPages()``); a cancellation
/// drops it, and `deinit` ends its waiters.
extension LoadingCore {
    /// What the lock guards.
    struct Guarded: Sendable {
        var nextObserverID = 0
        var observers: [Int: Observer] = [:]
        /// Pages asked for while a load was in flight, to start once none is.
        var deferredPages: [DeferredPage] = []
        /// The wait before the next revalidation, when the screen asks for them.
        var poll: Task<Void, Never>?
        /// The number of the last wait started: a wait replaced once its sleep ended
        /// finds another number, and neither reloads nor forgets the new wait.
        var pollNumber = 0
        /// Whether the screen's view is gone: no revalidation waits until it appears.
        var isPollingPaused = false
        /// The screen's place among the followers of a live resource, which its release
        /// ends.
        var liveMembership: LiveMembership?
    }

    // MARK: - Operations

    /// Records that the load in flight ended cancelled and tells
    /// ``Loading/loadWasCancelled()``.
    func recordCancellation(for loader: some Loading<Value>) {
        dropDeferredPages()
        report(.cancelled, for: loader)
        update(for: loader) { $0.cancel() }
        loader.loadWasCancelled()
    }

    /// Makes a new operation current, cancelling the one before; returns its number.
    func begin() -> UInt64 {
        generation += 1
        let previous = currentOperation
        currentOperation = nil
        previous?.cancel()
        return generation
    }

    /// Records the current operation, unless a newer one began.
    func attach(_ operation: LoadOperation) {
        guard generation == operation.generation else {
            operation.cancel()
            return
        }
        currentOperation = operation
    }

    /// Whether operation `generation` is still the current one.
    func isCurrent(_ generation: UInt64) -> Bool {
        self.generation == generation
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
        guard self.generation == generation, currentOperation?.generation == generation
        else { return .over }
        currentOperation = nil
        return isAwaitCancelled(generation) ? .cancelled : .current
    }

    /// Records that the task awaiting operation `generation` was cancelled, so that its
    /// outcome is never applied, whenever it arrives. Called from any thread: the
    /// highest number marked is kept, so a late mark of an operation already over
    /// never hides the mark of a newer one.
    nonisolated func cancelAwaited(_ generation: UInt64) {
        cancelledAwait.max(generation, ordering: .releasing)
    }

    /// Whether the task awaiting operation `generation` was cancelled.
    private func isAwaitCancelled(_ generation: UInt64) -> Bool {
        cancelledAwait.load(ordering: .acquiring) == generation
    }

    /// Cancels the current operation, so that its outcome is never applied; returns
    /// whether one was in flight.
    func cancel() -> Bool {
        generation += 1
        let operation = currentOperation
        currentOperation = nil
        operation?.cancel()
        return operation != nil
    }

    /// The current operation, if one is in flight and its awaiting task was not
    /// cancelled: the load whose outcome will be applied.
    var awaitedOperation: LoadOperation? {
        guard let operation = currentOperation, !isAwaitCancelled(operation.generation) else {
            return nil
        }
        return operation
    }

    // MARK: - Deferred pages

    /// Holds `page` until the load in flight has ended.
    func hold(_ page: DeferredPage) {
        holdsDeferredPages = true
        guarded.withLock { $0.deferredPages.append(page) }
    }

    /// The page held toward `direction`, if one is.
    func deferredPage(toward direction: PageDirection) -> DeferredPage? {
        guard holdsDeferredPages else { return nil }
        return guarded.withLock { $0.deferredPages.first { $0.direction == direction } }
    }

    /// Starts the pages held, in the order they were asked for: the load they waited
    /// for has ended and its outcome is applied. A page that finds another now in
    /// flight is held again.
    func startDeferredPages() {
        for page in takeDeferredPages() {
            page.resolve(dropping: false)
        }
    }

    /// Drops the pages held, clearing them from the state: the load was cancelled or
    /// the list reset.
    func dropDeferredPages() {
        for page in takeDeferredPages() {
            page.resolve(dropping: true)
        }
    }

    private func takeDeferredPages() -> [DeferredPage] {
        guard holdsDeferredPages else { return [] }
        holdsDeferredPages = false
        return guarded.withLock { guarded in
            defer { guarded.deferredPages = [] }
            return guarded.deferredPages
        }
    }

    // MARK: - Observers

    /// A new stream of states that starts with the current state and keeps every
    /// state until it is read; it ends when the core goes.
    func observe() -> AsyncStream<LoadingState<Value>> {
        let (stream, observer) = AsyncStream.makeStream(
            of: LoadingState<Value>.self,
            bufferingPolicy: .unbounded
        )
        mayHaveObservers = true
        let id = guarded.withLock { guarded in
            defer { guarded.nextObserverID += 1 }
            guarded.observers[guarded.nextObserverID] = observer
            return guarded.nextObserverID
        }
        let guarded = self.guarded
        observer.onTermination = { _ in
            guarded.withLock { _ = $0.observers.removeValue(forKey: id) }
        }
        observer.yield(current)
        return stream
    }

    /// Sends the current state to every observer; called only while
    /// ``mayHaveObservers``, so that a screen nobody observes makes none of the
    /// observers' generic types.
    func broadcast() {
        let observers = guarded.withLock { $0.observers.isEmpty ? [] : Array($0.observers.values) }
        guard !observers.isEmpty else {
            // Streams end on any thread, but only the main actor adds one: none is now.
            mayHaveObservers = false
            return
        }
        let state = current
        for observer in observers {
            observer.yield(state)
        }
    }
}

/// One operation of a loader in flight: its fetch, running off the main actor, and
/// how to apply what it fetched.
///
/// Whoever waits for the operation applies its outcome when it resumes — the caller of
/// an async load, a joiner, or the task of a load started without waiting — and the
/// first of them to resume wins. So an awaited load costs one hop to the main actor.
struct LoadOperation: Sendable {
    /// The number of the operation; only the current one may be applied.
    let generation: UInt64
    /// The resource whose value the operation makes the content, when it replaces
    /// the content; `nil` for a refresh or a next page. Only a load of the same
    /// resource joins it.
    let identity: ResourceIdentity?
    /// Leaves the fetch and ends every wait for it, once the operation is no longer
    /// current: a newer one began, it was cancelled or the screen is gone.
    let cancel: @Sendable () -> Void
    /// Waits for the fetch's outcome and applies it if the operation is still current;
    /// returns at once when the operation ends another way (``cancel``). With
    /// `propagatingCancellation`, cancelling the waiting task leaves the fetch and ends
    /// every wait at once, those of the loads that joined it included. A fetch other
    /// screens share goes on for them either way.
    let finish: @MainActor @Sendable (_ propagatingCancellation: Bool) async -> Void
}

/// How a request to load was answered.
enum LoadStart: Sendable {
    /// Nothing to do: the policy found the content good enough.
    case skipped
    /// A load already in flight serves the request.
    case joined(LoadOperation)
    /// A new load started.
    case started(LoadOperation)
    /// A page that starts when the load in flight has ended.
    case deferred(DeferredPage)

    /// Waits for the load to end: its outcome applied, or the load superseded or
    /// cancelled. Cancelling the waiting task cancels a load it started, never one it
    /// joined.
    @MainActor
    func finish() async {
        switch self {
        case .skipped: return
        case .joined(let operation): await operation.finish(false)
        case .started(let operation): await operation.finish(true)
        case .deferred(let page): await page.started().finish()
        }
    }

    /// A task that finishes the load, for callers that do not wait.
    @MainActor
    var task: LoadTask {
        if case .skipped = self {
            return .finished
        }
        return LoadTask(Task { @MainActor in await finish() })
    }
}

/// Passes a transfer's progress to the main actor, at most once per percent.
///
/// The report that completes a body is dropped: the value is applied right after,
/// so a small response costs no extra main-actor hop.
final class ProgressRelay: Sendable {
    /// The last percent passed on: an atomic, since a relay that never reports —
    /// most do not — should cost no lock to make.
    private let lastPercent = Atomic<Int>(0)
    private let deliver: @MainActor @Sendable (Double) -> Void

    init(deliver: @escaping @MainActor @Sendable (Double) -> Void) {
        self.deliver = deliver
    }

    /// Receives a transport's report, on the transport's queue.
    func report(_ progress: TransferProgress) {
        guard let fraction = progress.fractionCompleted, fraction < 1 else { return }
        let percent = Int(fraction * 100)
        guard lastPercent.max(percent, ordering: .relaxed).oldValue < percent else { return }
        let deliver = self.deliver
        Task { @MainActor in deliver(fraction) }
    }
}
