import Foundation

/// A response body read as it arrives: chunks of bytes in order, ending when the body
/// ends, or throwing what cut it short.
///
/// ```swift
/// let (body, response) = try await transport.stream(request)
/// for try await chunk in body {
///     print("received \(chunk.count) bytes")
/// }
/// ```
///
/// Read it once, from one task. ``cancel()``, cancelling the reading task, or releasing
/// the body stops the transfer.
public struct ResponseBody: AsyncSequence, Sendable {
    /// A chunk of the body, as the transport received it.
    public typealias Element = Data
    /// What cut the body short: `URLError(.networkConnectionLost)` for a connection
    /// lost, or whatever the transport reports.
    public typealias Failure = any Error

    private let chunks: AsyncThrowingStream<Data, any Error>
    private let stop: Stop
    /// Where the transport hands the chunks, when it hands them to a relay rather than
    /// to the stream: `URLSessionTransport`'s bodies.
    package private(set) var relay: ChunkRelay?

    /// Creates a body that reads `chunks` and runs `onCancel` once when it is cancelled,
    /// released or its reader's task is cancelled before the chunks end: the hook of a
    /// transport of your own to stop the transfer.
    ///
    /// - Parameters:
    ///   - chunks: The body's chunks, in order.
    ///   - onCancel: Stops the transfer; runs at most once, never after the chunks
    ///     ended by themselves.
    public init(
        chunks: AsyncThrowingStream<Data, any Error>,
        onCancel: @escaping @Sendable () -> Void
    ) {
        self.chunks = chunks
        stop = Stop(onCancel)
    }

    /// Makes a body and the continuation a transport feeds it through, its termination
    /// wired to `onCancel`.
    ///
    /// - Parameter onCancel: Stops the transfer when the reader goes away first.
    /// - Returns: The body, and the continuation to yield chunks to and finish.
    public static func makeBody(
        onCancel: @escaping @Sendable () -> Void
    ) -> (body: ResponseBody, continuation: AsyncThrowingStream<Data, any Error>.Continuation) {
        let (chunks, continuation) = AsyncThrowingStream<Data, any Error>.makeStream()
        // Cancelled, the body ends for its reader at once, whatever the transfer does.
        let body = ResponseBody(chunks: chunks) {
            onCancel()
            continuation.finish()
        }
        let stop = body.stop
        continuation.onTermination = { termination in
            if case .cancelled = termination {
                stop.run()
            }
        }
        return (body, continuation)
    }

    /// Stops the transfer; a reader then sees the body end.
    public func cancel() {
        stop.run()
    }

    /// Makes the iterator; call it once.
    ///
    /// - Returns: The iterator of the chunks.
    public func makeAsyncIterator() -> AsyncThrowingStream<Data, any Error>.Iterator {
        relay?.startStreaming()
        return chunks.makeAsyncIterator()
    }

    /// The body, its chunks handed by the transport to `relay`, which feeds the stream
    /// when the body is iterated.
    ///
    /// - Parameter relay: The relay, made with the body's continuation.
    /// - Returns: The body.
    package func relayed(by relay: ChunkRelay) -> ResponseBody {
        var body = self
        body.relay = relay
        return body
    }

    /// The relay the body's chunks go through: the transport's own, or one that
    /// iterates the body in a task of its own.
    package var chunkRelay: ChunkRelay {
        relay ?? ChunkRelay.pumping(self)
    }

    /// Runs the stopping hook at most once.
    private final class Stop: Sendable {
        private let hook: Locked<(@Sendable () -> Void)?>

        init(_ hook: @escaping @Sendable () -> Void) {
            self.hook = Locked(hook)
        }

        func run() {
            hook.withLock { hook in
                defer { hook = nil }
                return hook
            }?()
        }
    }
}
