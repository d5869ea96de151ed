import LoadingKitNetworking

/// The operation in flight and the observers: what other threads touch, behind the
/// core's one lock.
///
/// Why no outcome is applied twice, late or after a cancellation: an operation is
/// applied only after ``end(_:)`` cleared its flight under the lock, so one waiter of
/// the flight wins. A newer operation (``begin()``) or a cancellation (``cancel()``)
/// replaces the generation under the same lock, so a value that arrives later finds
/// its operation over. A cancelled awaiting task marks its generation
/// (``cancelAwaited(_:)``, from any thread) before the fetch is cancelled, so its value,
/// whenever it arrives, ends as a cancellation. `deinit` cancels the flight through
/// the same cell: the screen is gone. A page asked for while a flight is current waits
/// in the same cell and starts once the flight has been applied (``startDeferredPages()``);
/// a cancellation drops it, and `deinit` ends its waiters.
extension LoadingCore {
    /// What the lock guards.
    struct Flights: Sendable {
        var generation: UInt64 = 0
        var flight: LoadFlight?
        /// Whether the current flight's awaiting task was cancelled.
        var flightCancelled = false
        var nextObserverID = 0
        var observers: [Int: Observer] = [:]
        /// Pages asked for while a load was in flight, to start once none is.
        var deferredPages: [DeferredPage] = []
    }

    // MARK: - Operations

    /// Makes a new operation current, cancelling the one before; returns its number.
    func begin() -> UInt64 {
        let (generation, previous) = flights.withLock { flights in
            flights.generation += 1
            flights.flightCancelled = false
            defer { flights.flight = nil }
            return (flights.generation, flights.flight)
        }
        previous?.cancel()
        return generation
    }

    /// Records the flight of the current operation, unless a newer one began.
    func attach(_ flight: LoadFlight) {
        let stale = flights.withLock { flights in
            guard flights.generation == flight.generation else { return true }
            flights.flight = flight
            return false
        }
        if stale {
            flight.cancel()
        }
    }

    /// Whether operation `generation` is still the current one.
    func isCurrent(_ generation: UInt64) -> Bool {
        flights.withLock { $0.generation == generation }
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
        flights.withLock { flights in
            guard flights.generation == generation, flights.flight?.generation == generation
            else { return .over }
            flights.flight = nil
            return flights.flightCancelled ? .cancelled : .current
        }
    }

    /// Records that the task awaiting operation `generation` was cancelled, so that its
    /// outcome is never applied, whenever it arrives. Called from any thread.
    nonisolated func cancelAwaited(_ generation: UInt64) {
        flights.withLock { flights in
            if flights.generation == generation {
                flights.flightCancelled = true
            }
        }
    }

    /// Cancels the current operation, so that its outcome is never applied; returns
    /// whether one was in flight.
    func cancel() -> Bool {
        let flight = flights.withLock { flights in
            flights.generation += 1
            defer { flights.flight = nil }
            return flights.flight
        }
        flight?.cancel()
        return flight != nil
    }

    /// The current operation, if one is in flight.
    var currentFlight: LoadFlight? { flights.withLock { $0.flight } }

    /// The current operation, if one is in flight and its awaiting task was not
    /// cancelled: the load whose outcome will be applied.
    var awaitedFlight: LoadFlight? {
        flights.withLock { $0.flightCancelled ? nil : $0.flight }
    }

    // MARK: - Deferred pages

    /// Holds `page` until the load in flight has ended.
    func hold(_ page: DeferredPage) {
        flights.withLock { $0.deferredPages.append(page) }
    }

    /// The page held toward `direction`, if one is.
    func deferredPage(toward direction: PageDirection) -> DeferredPage? {
        flights.withLock { $0.deferredPages.first { $0.direction == direction } }
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
        flights.withLock { flights in
            defer { flights.deferredPages = [] }
            return flights.deferredPages
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
        let id = flights.withLock { flights in
            defer { flights.nextObserverID += 1 }
            flights.observers[flights.nextObserverID] = observer
            return flights.nextObserverID
        }
        let flights = self.flights
        observer.onTermination = { _ in
            flights.withLock { _ = $0.observers.removeValue(forKey: id) }
        }
        observer.yield(current)
        return stream
    }

    /// How many observers are registered.
    var observerCount: Int { flights.withLock { $0.observers.count } }

    /// Sends the current state to every observer.
    func broadcast() {
        let observers = flights.withLock { $0.observers.isEmpty ? [] : Array($0.observers.values) }
        guard !observers.isEmpty else { return }
        let state = current
        for observer in observers {
            observer.yield(state)
        }
    }
}
