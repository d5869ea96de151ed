import LoadingKitNetworking

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
    /// cancelled — unless the gate is made with `honorsCancellation: false`, which
    /// stands for a server whose response is already on its way: it arrives when the
    /// gate opens, cancelled or not.
    public final class Gate: Sendable {
        private struct State {
            var isOpen = false
            var nextID = 0
            var held: [Int: CheckedContinuation<Void, any Error>] = [:]
            var cancelledBeforeHeld: Set<Int> = []
        }

        private let state = Locked(State())
        private let arrived = CounterSignal()
        private let cancelled = CounterSignal()

        /// Whether a held request ends when its task is cancelled.
        public let honorsCancellation: Bool

        /// Creates a closed gate.
        ///
        /// - Parameter honorsCancellation: Whether a held request ends as soon as its
        ///   task is cancelled; `true` by default.
        public init(honorsCancellation: Bool = true) {
            self.honorsCancellation = honorsCancellation
        }

        /// Whether the gate has been opened.
        public var isOpen: Bool { state.withLock { $0.isOpen } }

        /// How many requests have reached the gate so far.
        public var arrivals: Int { arrived.value }

        /// How many held requests were cancelled before the gate opened.
        public var cancellations: Int { cancelled.value }

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

        /// Returns once `count` requests in all have reached the gate — or once the
        /// calling task is cancelled.
        ///
        /// - Parameter count: How many requests, counted from the gate's creation; 1
        ///   by default.
        public func waitForArrivals(_ count: Int = 1) async {
            await arrived.wait(for: count)
        }

        /// Returns once `count` held requests in all have been cancelled — or once the
        /// calling task is cancelled.
        ///
        /// - Parameter count: How many cancellations, counted from the gate's creation;
        ///   1 by default.
        public func waitForCancellations(_ count: Int = 1) async {
            await cancelled.wait(for: count)
        }

        /// Suspends the calling request until the gate opens or, when the gate honours
        /// cancellation, the task is cancelled.
        func pass() async throws {
            let id = state.withLock { state in
                defer { state.nextID += 1 }
                return state.nextID
            }
            guard honorsCancellation else {
                try await hold(id)
                return
            }
            try await withTaskCancellationHandler {
                try await hold(id)
            } onCancel: {
                let held = state.withLock { state in
                    guard let held = state.held.removeValue(forKey: id) else {
                        state.cancelledBeforeHeld.insert(id)
                        return CheckedContinuation<Void, any Error>?.none
                    }
                    return held
                }
                if let held {
                    cancelled.increment()
                    held.resume(throwing: CancellationError())
                }
            }
        }

        private func hold(_ id: Int) async throws {
            enum Outcome {
                case pass
                case cancelled
                case hold
            }
            try await withCheckedThrowingContinuation { continuation in
                let outcome = state.withLock { state in
                    if state.cancelledBeforeHeld.remove(id) != nil {
                        return Outcome.cancelled
                    }
                    if state.isOpen {
                        return Outcome.pass
                    }
                    state.held[id] = continuation
                    return Outcome.hold
                }
                arrived.increment()
                switch outcome {
                case .pass:
                    continuation.resume()
                case .cancelled:
                    cancelled.increment()
                    continuation.resume(throwing: CancellationError())
                case .hold:
                    break
                }
            }
        }
    }
}
