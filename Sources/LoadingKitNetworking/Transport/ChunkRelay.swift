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
/// chunks that arrive wait here — past 256 KiB in temporary files (``HeldChunks``),
/// since FoundationNetworking cannot pause the transfer — and the reading task consumes
/// them at its next ``drain()``. The consumer is never called by two threads at once,
/// and every chunk reaches it once, in order. A chunk that cannot be kept (the files'
/// limit, a full disk) ends the body with that error after the chunks kept before it,
/// and ``receive(_:)`` tells the transport to stop the transfer.
///
/// Keeping and taking back chunks writes and reads the files under the relay's lock, on
/// the transport's thread for a write: a chunk or a 64 KiB read to or from the page
/// cache, short beside the framing and decoding the consumer does on that thread.
package final class ChunkRelay: Sendable {
    /// Consumes a chunk; returns whether the chunks after it wait for the next
    /// ``ChunkRelay/drain()``.
    package typealias Consumer = @Sendable (Data) throws -> Bool
    /// Told, on the transport's thread, that a chunk arrived — consumed or kept.
    package typealias Arrival = @Sendable () -> Void

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
        /// The chunks kept for the reader: past a limit, in temporary files.
        var held: HeldChunks
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
            !isConsuming && (holdAsked || failure != nil || end != nil || !held.isEmpty)
        }
        /// The reading task, waiting for the consumer to hold, fail or the body to end.
        var reader: CheckedContinuation<Void, Never>?
        /// The task that feeds a body of another transport through the relay.
        var pump: Task<Void, Never>?
        /// Told of each chunk that arrives once the consumer started.
        var arrived: Arrival?
        /// Told, once the consumer started, that the body ended — by itself, with an
        /// error, or at a chunk that could not be kept: no byte comes any more.
        var ended: Arrival?

        /// Keeps `chunk` for the reader; returns whether more chunks are wanted. When it
        /// cannot be kept, the body ends with the error after the chunks kept before it,
        /// and the chunks after it are dropped.
        mutating func keep(_ chunk: Data) -> Bool {
            guard end == nil else { return false }
            do {
                try held.append(chunk)
                return true
            } catch {
                end = .some(error)
                return false
            }
        }

        /// Over: what is kept is dropped, and its files closed.
        mutating func close() {
            mode = .done
            held.removeAll()
        }
    }

    private let state: Locked<State>
    /// The body's stream, for a reader iterating it; `nil` for a pumped body.
    private let stream: AsyncThrowingStream<Data, any Error>.Continuation?

    /// A relay that feeds `stream` once a reader iterates the body.
    ///
    /// - Parameters:
    ///   - stream: The continuation of the body's stream.
    ///   - held: Where the chunks kept for the reader go.
    package init(
        streamingInto stream: AsyncThrowingStream<Data, any Error>.Continuation?,
        holdingIn held: HeldChunks = HeldChunks()
    ) {
        self.stream = stream
        state = Locked(State(held: held))
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
                    guard relay.receive(chunk) else {
                        body.cancel()
                        return
                    }
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
    /// - Returns: Whether more chunks are wanted: `false` once the relay is over, or a
    ///   chunk could not be kept. The transport then stops the transfer.
    @discardableResult
    package func receive(_ chunk: Data) -> Bool {
        let (consumer, arrived, wantsMore) = state.withLock {
            state -> (Consumer?, Arrival?, Bool) in
            switch state.mode {
            case .undecided:
                return (nil, nil, state.keep(chunk))
            case .streaming:
                stream?.yield(chunk)
                return (nil, nil, true)
            case .relaying(let consumer):
                guard state.isHeld else {
                    state.isConsuming = true
                    return (consumer, state.arrived, true)
                }
                return (nil, state.arrived, state.keep(chunk))
            case .done:
                return (nil, nil, false)
            }
        }
        arrived?()
        guard let consumer else {
            if !wantsMore {
                // A chunk that could not be kept ended the body: the drain says so.
                let ended = state.withLock { state -> Arrival? in
                    guard case .relaying = state.mode else { return nil }
                    defer { state.ended = nil }
                    return state.ended
                }
                ended?()
                wakeReader { _ in }
            }
            return wantsMore
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
            if let failure {
                // Nothing more goes to the consumer: the drain throws this.
                state.failure = state.failure ?? failure
                state.isHeld = true
            } else if holds {
                state.isHeld = true
                state.holdAsked = true
            }
        }
        return true
    }

    /// The body ended, by itself (`nil`) or with `error`.
    ///
    /// - Parameter error: What ended it, if anything.
    package func finish(throwing error: (any Error)?) {
        let (streamEnd, ended) = state.withLock { state -> ((any Error)??, Arrival?) in
            guard state.end == nil else { return (nil, nil) }
            state.end = .some(error)
            switch state.mode {
            case .streaming:
                state.close()
                return (.some(error), nil)
            case .relaying:
                // Nobody reads the stream: it ends as finished, not as given up.
                defer { state.ended = nil }
                return (.some(nil), state.ended)
            case .undecided, .done:
                return (nil, nil)
            }
        }
        if let streamEnd {
            stream?.finish(throwing: streamEnd)
        }
        ended?()
        wakeReader { _ in }
    }

    /// Ends the relay at once, with `CancellationError`: the chunks kept are dropped,
    /// those still arriving too, and a pump stops.
    package func cancel() {
        finish(throwing: CancellationError())
        let pump = state.withLock { state in
            state.close()
            return state.pump
        }
        pump?.cancel()
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
        // Under the lock: a chunk arriving meanwhile goes after those kept, and the end
        // after all of them.
        state.withLock { state in
            guard case .undecided = state.mode else { return }
            state.mode = state.end == nil ? .streaming : .done
            do {
                while case let chunks = try state.held.take(), !chunks.isEmpty {
                    for chunk in chunks {
                        stream?.yield(chunk)
                    }
                }
            } catch {
                state.close()
                stream?.finish(throwing: error)
                return
            }
            if let end = state.end {
                stream?.finish(throwing: end)
            }
        }
    }

    /// Hands the chunks to `consumer` from now on: those kept at the next
    /// ``drain()``, in the reading task, then the others as they arrive.
    ///
    /// - Parameters:
    ///   - consumer: Consumes each chunk; never called by two threads at once.
    ///   - arrived: Told of each chunk as it arrives, also while the consumer holds:
    ///     what an idle timeout counts, since a consumer far behind takes chunks late.
    ///   - ended: Told once when the body ends — by itself, with an error, or at a chunk
    ///     that could not be kept — while chunks kept may still wait for the consumer:
    ///     the silence after it is no dead connection.
    package func start(
        _ consumer: @escaping Consumer,
        arrived: Arrival? = nil,
        ended: Arrival? = nil
    ) {
        let endedAlready = state.withLock { state -> Bool in
            guard case .undecided = state.mode else { return false }
            state.mode = .relaying(consumer)
            state.arrived = arrived
            guard state.end == nil else { return true }
            state.ended = ended
            return false
        }
        if endedAlready {
            ended?()
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
                // Not while the consumer runs on the transport's thread, ended or not.
                if state.isConsuming {
                    return .wait
                }
                guard case .relaying(let consumer) = state.mode else {
                    return .end(state.end ?? nil)
                }
                if let failure = state.failure {
                    state.close()
                    return .fail(failure)
                }
                if state.holdAsked {
                    state.holdAsked = false
                    return .holding
                }
                if !state.held.isEmpty {
                    state.isHeld = true
                    do {
                        return .consume(try state.held.take(), consumer)
                    } catch {
                        state.close()
                        return .fail(error)
                    }
                }
                if let end = state.end {
                    state.close()
                    return .end(end)
                }
                state.isHeld = false
                return .wait
            }
            switch step {
            case .consume(let chunks, let consumer):
                for (index, chunk) in chunks.enumerated() {
                    let holds: Bool
                    do {
                        holds = try consumer(chunk)
                    } catch {
                        state.withLock { $0.close() }
                        throw error
                    }
                    if holds {
                        state.withLock {
                            $0.held.putBack(chunks[(index + 1)...])
                        }
                        return .holding
                    }
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

    /// Whether a ``drain()`` waits while chunks go to the consumer as they arrive: what
    /// a test waits for before it hands a chunk over on the transport's thread.
    package var isDrainWaiting: Bool {
        state.withLock { $0.reader != nil }
    }

    /// Whether some of the chunks kept wait in a file: what a test checks.
    package var hasSpilled: Bool {
        state.withLock { $0.held.isSpilled }
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
