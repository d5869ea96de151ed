import Synchronization

extension MockTransport {
    /// Holds scripted responses until the test opens it, so a test decides the order
    /// in which responses arrive.
    ///
    /// ```swift
    /// let first = MockTransport.Gate()
    /// mock.respond(to: "/feed", with: .json(old), after: first)
    /// mock.respond(to: "/feed", with: .json(new))
    /// async let a: Void = screen.load(resource: feed, policy: .force)
    /// await first.waitForArrivals(1)      // the first request is held
    /// await screen.load(resource: feed, policy: .force)   // the second one completes
    /// first.open()                        // the first, now superseded, arrives last
    /// ```
    ///
    /// A request held at a gate ends with `CancellationError` as soon as its task is
    /// cancelled.
    public final class Gate: Sendable {
        private struct State {
            var isOpen = false
            var arrivals = 0
            var nextID = 0
            var held: [Int: CheckedContinuation<Void, any Error>] = [:]
            var cancelledBeforeHeld: Set<Int> = []
            var arrivalWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
        }

        private let state = Mutex(State())

        /// Creates a closed gate.
        public init() {}

        /// Whether the gate has been opened.
        public var isOpen: Bool { state.withLock { $0.isOpen } }

        /// How many requests have reached the gate so far.
        public var arrivals: Int { state.withLock { $0.arrivals } }

        /// Releases every held request; requests that arrive later pass at once.
        public func open() {
            let released = state.withLock { state in
                state.isOpen = true
                defer { state.held.removeAll() }
                return Array(state.held.values)
            }
            for continuation in released {
                continuation.resume()
            }
        }

        /// Returns once `count` requests in all have reached the gate.
        public func waitForArrivals(_ count: Int = 1) async {
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state in
                    guard state.arrivals < count else { return true }
                    state.arrivalWaiters.append((count, continuation))
                    return false
                }
                if ready {
                    continuation.resume()
                }
            }
        }

        /// Suspends the calling request until the gate opens or the task is cancelled.
        func pass() async throws {
            let id = state.withLock { state in
                defer { state.nextID += 1 }
                return state.nextID
            }
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    enum Outcome {
                        case pass
                        case cancelled
                        case hold
                    }
                    let (outcome, arrived) = state.withLock { state in
                        state.arrivals += 1
                        let arrived = state.arrivalWaiters.filter { $0.count <= state.arrivals }
                        state.arrivalWaiters.removeAll { $0.count <= state.arrivals }
                        if state.cancelledBeforeHeld.remove(id) != nil {
                            return (Outcome.cancelled, arrived)
                        }
                        if state.isOpen {
                            return (Outcome.pass, arrived)
                        }
                        state.held[id] = continuation
                        return (Outcome.hold, arrived)
                    }
                    for waiter in arrived {
                        waiter.continuation.resume()
                    }
                    switch outcome {
                    case .pass: continuation.resume()
                    case .cancelled: continuation.resume(throwing: CancellationError())
                    case .hold: break
                    }
                }
            } onCancel: {
                let held = state.withLock { state in
                    guard let held = state.held.removeValue(forKey: id) else {
                        state.cancelledBeforeHeld.insert(id)
                        return CheckedContinuation<Void, any Error>?.none
                    }
                    return held
                }
                held?.resume(throwing: CancellationError())
            }
        }
    }
}
