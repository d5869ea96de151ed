import Dispatch
import Foundation
import LoadingKitNetworking
import LoadingKitTesting
import Testing

/// The chunks a consumer got, in order, and whether it asks to hold after each.
private final class Consumed: Sendable {
    private let chunks = Locked<[String]>([])
    private let holdsAfter: Set<String>
    private let failsAt: String?

    init(holdingAfter holdsAfter: Set<String> = [], failingAt failsAt: String? = nil) {
        self.holdsAfter = holdsAfter
        self.failsAt = failsAt
    }

    var all: [String] { chunks.withLock { $0 } }

    func consume(_ data: Data) throws -> Bool {
        let text = String(decoding: data, as: UTF8.self)
        if text == failsAt {
            throw URLError(.cannotParseResponse)
        }
        chunks.withLock { $0.append(text) }
        return holdsAfter.contains(text)
    }
}

private func chunk(_ text: String) -> Data {
    Data(text.utf8)
}

@Suite("A body's chunks relayed to their consumer", .timeLimit(.minutes(1)))
struct ChunkRelayTests {
    @Test(
        "chunks that came before the consumer are consumed first, in order, then the rest as they come"
    )
    func keptThenInline() async throws {
        let relay = ChunkRelay(streamingInto: nil)
        let consumed = Consumed()
        relay.receive(chunk("a"))
        relay.receive(chunk("b"))
        relay.start(consumed.consume)
        let draining = Task { try await relay.drain() }
        // The reading task consumed what was kept; the next chunk goes to the consumer
        // on this thread.
        while !relay.isDrainWaiting, !Task.isCancelled { await Task.yield() }
        #expect(consumed.all == ["a", "b"])
        relay.receive(chunk("c"))
        #expect(consumed.all == ["a", "b", "c"])
        relay.finish(throwing: nil)
        let progress = try await draining.valuePropagatingCancellation
        #expect(consumed.all == ["a", "b", "c"])
        guard case .ended(nil) = progress else {
            Issue.record("expected the end, got \(progress)")
            return
        }
    }

    @Test(
        "a consumer that asks to hold gets nothing more until the next drain, which gives it all, in order"
    )
    func holding() async throws {
        let relay = ChunkRelay(streamingInto: nil)
        let consumed = Consumed(holdingAfter: ["b"])
        relay.start(consumed.consume)
        let first = Task { try await relay.drain() }
        while !relay.isDrainWaiting, !Task.isCancelled { await Task.yield() }
        relay.receive(chunk("a"))
        relay.receive(chunk("b"))
        guard case .holding = try await first.valuePropagatingCancellation else {
            Issue.record("expected the relay to hold")
            return
        }
        relay.receive(chunk("c"))
        relay.receive(chunk("d"))
        #expect(consumed.all == ["a", "b"])
        relay.finish(throwing: nil)
        let second = try await relay.drain()
        #expect(consumed.all == ["a", "b", "c", "d"])
        guard case .ended(nil) = second else {
            Issue.record("expected the end, got \(second)")
            return
        }
    }

    @Test(
        "a consumer far behind: the chunks past the memory limit wait in a file, and all reach it in order"
    )
    func spilledWhileHeld() async throws {
        let relay = ChunkRelay(streamingInto: nil, holdingIn: HeldChunks(memoryLimit: 4))
        let consumed = Consumed(holdingAfter: ["a"])
        relay.start(consumed.consume)
        let first = Task { try await relay.drain() }
        while !relay.isDrainWaiting, !Task.isCancelled { await Task.yield() }
        relay.receive(chunk("a"))
        guard case .holding = try await first.valuePropagatingCancellation else {
            Issue.record("expected the relay to hold")
            return
        }
        for text in ["bc", "de", "fg", "hi"] {
            relay.receive(chunk(text))
        }
        #expect(relay.hasSpilled)
        relay.finish(throwing: nil)
        let second = try await relay.drain()
        // What waited in the file comes back in one piece.
        #expect(consumed.all == ["a", "bc", "de", "fghi"])
        #expect(!relay.hasSpilled)
        guard case .ended(nil) = second else {
            Issue.record("expected the end, got \(second)")
            return
        }
    }

    @Test(
        "a chunk that cannot be kept ends the body with the error, after the chunks kept before it"
    )
    func unkeptChunkEnds() async throws {
        let nowhere = FileManager.default.temporaryDirectory
            .appendingPathComponent("missing-\(UUID().uuidString)")
        let relay = ChunkRelay(
            streamingInto: nil,
            holdingIn: HeldChunks(memoryLimit: 4, directory: nowhere)
        )
        let consumed = Consumed()
        for text in ["ab", "cd", "ef", "gh"] {
            relay.receive(chunk(text))
        }
        relay.finish(throwing: nil)
        relay.start(consumed.consume)
        let progress = try await relay.drain()
        #expect(consumed.all == ["ab", "cd"])
        guard case .ended(let error?) = progress else {
            Issue.record("expected the end with an error, got \(progress)")
            return
        }
        #expect(error is POSIXError)
    }

    @Test("each chunk's arrival is told as it comes, also while the consumer holds")
    func arrivalsWhileHeld() async throws {
        let relay = ChunkRelay(streamingInto: nil)
        let consumed = Consumed(holdingAfter: ["a"])
        let arrivals = Locked(0)
        relay.start(consumed.consume, arrived: { arrivals.withLock { $0 += 1 } })
        let first = Task { try await relay.drain() }
        while !relay.isDrainWaiting, !Task.isCancelled { await Task.yield() }
        relay.receive(chunk("a"))
        guard case .holding = try await first.valuePropagatingCancellation else {
            Issue.record("expected the relay to hold")
            return
        }
        relay.receive(chunk("b"))
        relay.receive(chunk("c"))
        // Kept, not consumed: an idle timeout counting consumed chunks would see silence.
        #expect(consumed.all == ["a"])
        #expect(arrivals.withLock { $0 } == 3)
        relay.finish(throwing: nil)
        _ = try await relay.drain()
        #expect(consumed.all == ["a", "b", "c"])
        #expect(arrivals.withLock { $0 } == 3)
    }

    @Test("holding in the middle of the chunks kept leaves the rest kept, in order")
    func holdingWhileDraining() async throws {
        let relay = ChunkRelay(streamingInto: nil)
        let consumed = Consumed(holdingAfter: ["b"])
        for text in ["a", "b", "c", "d"] {
            relay.receive(chunk(text))
        }
        relay.finish(throwing: URLError(.networkConnectionLost))
        relay.start(consumed.consume)
        guard case .holding = try await relay.drain() else {
            Issue.record("expected the relay to hold")
            return
        }
        #expect(consumed.all == ["a", "b"])
        let end = try await relay.drain()
        #expect(consumed.all == ["a", "b", "c", "d"])
        guard case .ended(let error as URLError) = end else {
            Issue.record("expected the body's error, got \(end)")
            return
        }
        #expect(error.code == .networkConnectionLost)
    }

    @Test(
        "after the consumer threw on the transport's thread, no chunk reaches it, and the drain throws"
    )
    func nothingAfterFailureInline() async throws {
        let relay = ChunkRelay(streamingInto: nil)
        let consumed = Consumed(failingAt: "bad")
        relay.start(consumed.consume)
        let draining = Task { try await relay.drain() }
        while !relay.isDrainWaiting, !Task.isCancelled { await Task.yield() }
        // Three chunks on this thread before the reading task runs again.
        relay.receive(chunk("a"))
        relay.receive(chunk("bad"))
        relay.receive(chunk("c"))
        #expect(consumed.all == ["a"])
        await #expect(throws: URLError.self) { try await draining.valuePropagatingCancellation }
        relay.receive(chunk("after"))
        #expect(consumed.all == ["a"])
    }

    @Test("cancelling drops the chunks kept: the drain ends without consuming them")
    func cancellingDropsKept() async throws {
        let relay = ChunkRelay(streamingInto: nil)
        let consumed = Consumed(holdingAfter: ["a"])
        relay.start(consumed.consume)
        relay.receive(chunk("a"))
        relay.receive(chunk("b"))
        guard case .holding = try await relay.drain() else {
            Issue.record("expected the relay to hold")
            return
        }
        relay.receive(chunk("c"))
        relay.cancel()
        relay.receive(chunk("d"))
        let end = try await relay.drain()
        #expect(consumed.all == ["a"])
        guard case .ended(let error) = end, error is CancellationError else {
            Issue.record("expected CancellationError, got \(end)")
            return
        }
    }

    @Test("a body iterated while chunks arrive on another thread gets them all, in order")
    func streamingWhileArriving() async throws {
        for _ in 0..<20 {
            let (body, continuation) = ResponseBody.makeBody {}
            let relay = ChunkRelay(streamingInto: continuation)
            let relayed = body.relayed(by: relay)
            let transport = Thread {
                for number in 0..<500 {
                    relay.receive(chunk("\(number),"))
                }
                relay.finish(throwing: nil)
            }
            transport.start()
            var received = ""
            for try await next in relayed {
                received += String(decoding: next, as: UTF8.self)
            }
            #expect(received == (0..<500).map { "\($0)," }.joined())
        }
    }

    @Test("cancelling ends a waiting drain with CancellationError")
    func cancelling() async throws {
        let relay = ChunkRelay(streamingInto: nil)
        relay.start(Consumed().consume)
        let draining = Task { try await relay.drain() }
        relay.cancel()
        let end = try await draining.valuePropagatingCancellation
        guard case .ended(let error) = end, error is CancellationError else {
            Issue.record("expected CancellationError, got \(end)")
            return
        }
    }

    @Test("the drain does not return while the consumer still runs on the transport's thread")
    func endWhileConsuming() async throws {
        let relay = ChunkRelay(streamingInto: nil)
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let finished = Locked(false)
        relay.start { _ in
            entered.signal()
            release.wait()
            finished.withLock { $0 = true }
            return false
        }
        let draining = Task { try await relay.drain() }
        while !relay.isDrainWaiting, !Task.isCancelled { await Task.yield() }
        let transport = Thread { relay.receive(chunk("a")) }
        transport.start()
        try #require(await entered.signalled())
        // The body ends — a cancellation, say — while the consumer runs.
        relay.finish(throwing: CancellationError())
        #expect(relay.isDrainWaiting)
        release.signal()
        _ = try await draining.valuePropagatingCancellation
        #expect(finished.withLock { $0 })
    }

    @Test("a body iterated gets the chunks kept before, then the others, then its end")
    func streaming() async throws {
        let (body, continuation) = ResponseBody.makeBody {}
        let relay = ChunkRelay(streamingInto: continuation)
        let relayed = body.relayed(by: relay)
        relay.receive(chunk("a"))
        var iterator = relayed.makeAsyncIterator()
        relay.receive(chunk("b"))
        relay.finish(throwing: nil)
        var received: [String] = []
        while let next = try await iterator.next() {
            received.append(String(decoding: next, as: UTF8.self))
        }
        #expect(received == ["a", "b"])
    }

    @Test("a body of another transport is pumped through a relay, in order")
    func pumped() async throws {
        let (body, continuation) = ResponseBody.makeBody {}
        let relay = body.chunkRelay
        let consumed = Consumed()
        relay.start(consumed.consume)
        for text in ["a", "b", "c"] {
            continuation.yield(chunk(text))
        }
        continuation.finish()
        var progress = try await relay.drain()
        while case .holding = progress {
            progress = try await relay.drain()
        }
        #expect(consumed.all == ["a", "b", "c"])
    }

    @Test(
        "a chunk that cannot be kept ends the body after those kept, and the transport is told to stop"
    )
    func failedKeep() async throws {
        let relay = ChunkRelay(
            streamingInto: nil,
            holdingIn: HeldChunks(memoryLimit: 0, fileLimit: 4)
        )
        let consumed = Consumed(holdingAfter: ["a"])
        relay.start(consumed.consume)
        #expect(relay.receive(chunk("a")))
        #expect(try await relay.drain().isHolding)
        #expect(relay.receive(chunk("bc")))
        #expect(relay.hasSpilled)
        #expect(relay.receive(chunk("defgh")) == false)
        #expect(relay.receive(chunk("i")) == false)
        let end = try await relay.drain()
        #expect(consumed.all == ["a", "bc"])
        guard case .ended(WebserviceError.responseTooLarge(let failure)?) = end else {
            Issue.record("expected responseTooLarge, got \(end)")
            return
        }
        #expect(failure.limit == 4)
        #expect(relay.hasSpilled == false)
    }

    @Test("the consumer's side is told once that no byte comes any more: a cut, or the end")
    func endedTold() async throws {
        let endings = Locked(0)
        let cut = ChunkRelay(
            streamingInto: nil,
            holdingIn: HeldChunks(memoryLimit: 0, fileLimit: 2)
        )
        cut.start(Consumed(holdingAfter: ["a"]).consume, ended: { endings.withLock { $0 += 1 } })
        cut.receive(chunk("a"))
        #expect(try await cut.drain().isHolding)
        #expect(cut.receive(chunk("bc")))
        #expect(endings.withLock { $0 } == 0)
        #expect(cut.receive(chunk("d")) == false)
        #expect(endings.withLock { $0 } == 1)
        cut.finish(throwing: nil)
        #expect(endings.withLock { $0 } == 1)

        let ended = ChunkRelay(streamingInto: nil)
        ended.receive(chunk("a"))
        ended.finish(throwing: nil)
        // Ended before the consumer started: told as it starts.
        ended.start(Consumed().consume, ended: { endings.withLock { $0 += 1 } })
        #expect(endings.withLock { $0 } == 2)
    }

    @Test("a body iterated gets the chunks kept in a file, in order, then its end")
    func streamingFromFile() async throws {
        let (body, continuation) = ResponseBody.makeBody {}
        let relay = ChunkRelay(streamingInto: continuation, holdingIn: HeldChunks(memoryLimit: 2))
        let relayed = body.relayed(by: relay)
        for text in ["ab", "cd", "ef"] {
            relay.receive(chunk(text))
        }
        #expect(relay.hasSpilled)
        relay.finish(throwing: nil)
        var received = ""
        for try await next in relayed {
            received += String(decoding: next, as: UTF8.self)
        }
        #expect(received == "abcdef")
        #expect(relay.hasSpilled == false)
    }

    @Test("cancelling drops the chunks kept in a file and closes it")
    func cancellingDropsFile() async throws {
        let relay = ChunkRelay(streamingInto: nil, holdingIn: HeldChunks(memoryLimit: 0))
        let consumed = Consumed()
        relay.start(consumed.consume)
        relay.receive(chunk("a"))
        relay.receive(chunk("b"))
        #expect(relay.hasSpilled)
        relay.cancel()
        #expect(relay.hasSpilled == false)
        #expect(relay.receive(chunk("c")) == false)
        let end = try await relay.drain()
        #expect(consumed.all.isEmpty)
        guard case .ended(let error) = end, error is CancellationError else {
            Issue.record("expected CancellationError, got \(end)")
            return
        }
    }
}

extension ChunkRelay.Progress {
    /// Whether the consumer asked to hold.
    fileprivate var isHolding: Bool {
        if case .holding = self { true } else { false }
    }
}
