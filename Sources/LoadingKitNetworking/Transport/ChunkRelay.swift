import Dispatch
import Foundation

/// Where the chunks of a streamed body go: kept until its reader chooses, then into the
/// body's stream for a reader iterating it, or handed to a consumer as they arrive, on
/// the transport's thread — the live reading's route, with no thread hop per chunk.
///
/// ```swift
/// relay.receive(chunk)                        // the transport, as chunks arrive
/// relay.start { chunk in try consume(chunk) } // true: hold the next chunks
/// while case .holding = try await relay.drain() {
///     await waitUntilReady()
/// }
/// ```
///
/// A consumer that asks to hold is handed nothing more on the transport's thread: the
/// chunks that arrive wait here, and the reading task consumes them at its next
/// ``drain()``. The consumer is never called by two threads at once, and every chunk
/// reaches it once, in order.
package final class ChunkRelay: Sendable {
    /// Consumes a chunk; returns whether the chunks after it wait for the next
    /// ``ChunkRelay/drain()``.
    package typealias Consumer = @Sendable (Data) throws -> Bool

    /// Where the reading stands after ``ChunkRelay/drain()``.
    package enum Progress: Sendable {
        /// The consumer asked to hold: drain again once it can take more.
        case holding
        /// Every chunk was consumed and the body ended: by itself (`nil`) or with the
        /// error.
        case ended((any Error)?)
    }

    private enum Mode {
        /// Nobody reads yet: chunks wait.
        case undecided
        /// A reader iterates the body's stream.
        case streaming
        /// The consumer takes the chunks.
        case relaying(Consumer)
        /// Over: chunks that still come are dropped.
        case done
    }

    private struct State {
        var mode = Mode.undecided
        var waiting: [Data] = []
        /// The bytes of the chunks kept while the consumer holds.
        var heldBytes = 0
        /// The transport's thread, waiting while more than the limit is kept.
        var blockedTransport: DispatchSemaphore?
        /// How the body ended, once it did: by itself (`.some(nil)`) or with the error.
        var end: (any Error)??
        /// Whether arriving chunks wait instead of going to the consumer at once.
        var isHeld = true
        /// Whether the consumer runs on the transport's thread now.
        var isConsuming = false
        /// Whether the consumer asked, on the transport's thread, to hold.
        var holdAsked = false
        /// What the consumer threw on the transport's thread.
        var failure: (any Error)?

        /// Whether the reading task has something to do.
        var hasNews: Bool {
            !isConsuming && (holdAsked || failure != nil || end != nil || !waiting.isEmpty)
        }
        /// The reading task, waiting for the consumer to hold, fail or the body to end.
        var reader: CheckedContinuation<Void, Never>?
        /// The task that feeds a body of another transport through the relay.
        var pump: Task<Void, Never>?
    }

    private let state = Locked(State())
    /// The body's stream, for a reader iterating it; `nil` for a pumped body.
    private let stream: AsyncThrowingStream<Data, any Error>.Continuation?
    /// The most bytes kept while the consumer holds before the transport's thread waits.
    private let heldLimit: Int?

    /// A relay that feeds `stream` once a reader iterates the body.
    ///
    /// - Parameters:
    ///   - stream: The continuation of the body's stream.
    ///   - heldLimit: The most bytes kept while the consumer holds: past it, the
    ///     transport's thread waits in ``receive(_:)`` until the reading task drained
    ///     them, which stops the transport reading the connection, and the connection's
    ///     flow control holds the server back. `nil`: no limit, the thread never waits.
    package init(
        streamingInto stream: AsyncThrowingStream<Data, any Error>.Continuation?,
        holdingAtMost heldLimit: Int? = nil
    ) {
        self.stream = stream
        self.heldLimit = heldLimit
    }

    /// A relay fed by iterating `body` in a task of its own: the route for a body of
    /// another transport.
    ///
    /// - Parameter body: The body, iterated once.
    /// - Returns: The relay.
    package static func pumping(_ body: ResponseBody) -> ChunkRelay {
        let relay = ChunkRelay(streamingInto: nil)
        let pump = Task {
            do {
                for try await chunk in body {
                    relay.receive(chunk)
                }
                relay.finish(throwing: nil)
            } catch {
                relay.finish(throwing: error)
            }
        }
        relay.state.withLock { $0.pump = pump }
        return relay
    }

    // MARK: - The transport's side

    /// A chunk arrived: to the consumer at once unless it holds, to the stream of a
    /// reader iterating the body, or kept.
    ///
    /// - Parameter chunk: The chunk.
    package func receive(_ chunk: Data) {
        let action = state.withLock { state -> Arrival in
            switch state.mode {
            case .undecided:
                state.waiting.append(chunk)
                state.heldBytes += chunk.count
            case .streaming:
                stream?.yield(chunk)
            case .relaying(let consumer):
                guard state.isHeld else {
                    state.isConsuming = true
                    return .consume(consumer)
                }
                state.waiting.append(chunk)
                state.heldBytes += chunk.count
                if let heldLimit, state.heldBytes > heldLimit, state.blockedTransport == nil {
                    let semaphore = DispatchSemaphore(value: 0)
                    state.blockedTransport = semaphore
                    return .block(semaphore)
                }
            case .done:
                break
            }
            return .kept
        }
        let consumer: Consumer
        switch action {
        case .kept:
            return
        case .block(let semaphore):
            semaphore.wait()
            return
        case .consume(let inline):
            consumer = inline
        }
        // Nothing else calls the consumer while it does not hold: the reading task waits
        // until it returned.
        var holds = false
        var failure: (any Error)?
        do {
            holds = try consumer(chunk)
        } catch {
            failure = error
        }
        wakeReader { state in
            state.isConsuming = false
            state.failure = failure
            if holds {
                state.isHeld = true
                state.holdAsked = true
            }
        }
    }

    /// The body ended, by itself (`nil`) or with `error`.
    ///
    /// - Parameter error: What ended it, if anything.
    package func finish(throwing error: (any Error)?) {
        let (streamEnd, blocked) = state.withLock { state -> ((any Error)??, DispatchSemaphore?) in
            defer { state.blockedTransport = nil }
            guard state.end == nil else { return (nil, state.blockedTransport) }
            state.end = .some(error)
            switch state.mode {
            case .streaming:
                state.mode = .done
                return (.some(error), state.blockedTransport)
            case .relaying:
                // Nobody reads the stream: it ends as finished, not as given up.
                return (.some(nil), state.blockedTransport)
            case .undecided, .done:
                return (nil, state.blockedTransport)
            }
        }
        blocked?.signal()
        if let streamEnd {
            stream?.finish(throwing: streamEnd)
        }
        wakeReader { _ in }
    }

    /// What ``receive(_:)`` does with a chunk after the lock.
    private enum Arrival {
        case kept
        case consume(Consumer)
        /// Kept, past the limit: the transport's thread waits.
        case block(DispatchSemaphore)
    }

    /// Ends the relay at once, with `CancellationError`, and stops a pump.
    package func cancel() {
        finish(throwing: CancellationError())
        state.withLock { $0.pump }?.cancel()
    }

    /// Changes the state with `change` and resumes the waiting reading task, if it has
    /// something to do.
    private func wakeReader(_ change: (inout State) -> Void) {
        state.withLock { state -> CheckedContinuation<Void, Never>? in
            change(&state)
            guard state.hasNews else { return nil }
            defer { state.reader = nil }
            return state.reader
        }?.resume()
    }

    // MARK: - The reader's side

    /// The reader iterates the body: the chunks kept, then those that arrive, go to the
    /// body's stream.
    package func startStreaming() {
        let (waiting, end) = state.withLock { state in
            guard case .undecided = state.mode else { return ([Data](), (any Error)??.none) }
            state.mode = state.end == nil ? .streaming : .done
            state.heldBytes = 0
            defer { state.waiting = [] }
            return (state.waiting, state.end)
        }
        for chunk in waiting {
            stream?.yield(chunk)
        }
        if let end {
            stream?.finish(throwing: end)
        }
    }

    /// Hands the chunks to `consumer` from now on: those kept at the next
    /// ``drain()``, in the reading task, then the others as they arrive.
    ///
    /// - Parameter consumer: Consumes each chunk; never called by two threads at once.
    package func start(_ consumer: @escaping Consumer) {
        state.withLock { state in
            guard case .undecided = state.mode else { return }
            state.mode = .relaying(consumer)
        }
    }

    /// Consumes the chunks waiting, in the calling task; once none wait, lets the next
    /// go to the consumer as they arrive, and returns when the consumer asks to hold
    /// or the body ended.
    ///
    /// - Returns: Whether to drain again, or how the body ended.
    /// - Throws: What the consumer threw.
    package func drain() async throws -> Progress {
        while true {
            let step = state.withLock { state -> Step in
                guard case .relaying(let consumer) = state.mode else {
                    return .end(state.end ?? nil)
                }
                if state.isConsuming {
                    return .wait
                }
                if let failure = state.failure {
                    state.mode = .done
                    return .fail(failure)
                }
                if state.holdAsked {
                    state.holdAsked = false
                    return .holding
                }
                if !state.waiting.isEmpty {
                    state.isHeld = true
                    // Still counted as held until consumed.
                    defer { state.waiting = [] }
                    return .consume(state.waiting, consumer)
                }
                if let end = state.end {
                    state.mode = .done
                    return .end(end)
                }
                state.isHeld = false
                return .wait
            }
            switch step {
            case .consume(let chunks, let consumer):
                if try consume(chunks, with: consumer) {
                    return .holding
                }
            case .fail(let error):
                throw error
            case .holding:
                return .holding
            case .end(let end):
                return .ended(end)
            case .wait:
                await waitForNews()
            }
        }
    }

    /// Consumes `chunks` in order until the consumer asks to hold, keeping the rest;
    /// lets a waiting transport's thread go once a quarter of the limit or less is kept.
    /// Returns whether the consumer holds.
    private func consume(_ chunks: [Data], with consumer: Consumer) throws -> Bool {
        var consumed = 0
        var heldAt: Int?
        var failure: (any Error)?
        for (index, chunk) in chunks.enumerated() {
            consumed += chunk.count
            do {
                if try consumer(chunk) {
                    heldAt = index
                    break
                }
            } catch {
                failure = error
                break
            }
        }
        let blocked = state.withLock { state -> DispatchSemaphore? in
            state.heldBytes -= consumed
            if failure != nil {
                state.mode = .done
            } else if let heldAt {
                state.waiting.insert(contentsOf: chunks[(heldAt + 1)...], at: 0)
            }
            guard failure != nil || state.heldBytes <= (heldLimit ?? 0) / 4 else { return nil }
            defer { state.blockedTransport = nil }
            return state.blockedTransport
        }
        blocked?.signal()
        if let failure {
            throw failure
        }
        return heldAt != nil
    }

    /// Whether a ``drain()`` waits while chunks go to the consumer as they arrive: what
    /// a test waits for before it hands a chunk over on the transport's thread.
    package var isDrainWaiting: Bool {
        state.withLock { $0.reader != nil }
    }

    /// Whether the transport's thread waits in ``receive(_:)`` for chunks kept to be
    /// drained: what a test waits for.
    package var isTransportWaiting: Bool {
        state.withLock { $0.blockedTransport != nil }
    }

    /// One turn of ``drain()``.
    private enum Step {
        case consume([Data], Consumer)
        case fail(any Error)
        case holding
        case end((any Error)?)
        case wait
    }

    /// Returns once the consumer held or failed, or the body ended — and the consumer
    /// is not running on the transport's thread.
    private func waitForNews() async {
        await withCheckedContinuation { reader in
            let isNews = state.withLock { state in
                guard !state.hasNews else { return true }
                state.reader = reader
                return false
            }
            if isNews {
                reader.resume()
            }
        }
    }
}
