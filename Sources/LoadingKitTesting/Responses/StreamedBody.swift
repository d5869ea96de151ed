import Foundation
import LoadingKitNetworking

/// A response body that a test writes while the client reads it: server-sent events
/// pushed one at a time, a connection held open, a connection dropped in the middle of
/// an event. One body serves one response, of a ``MockTransport`` or a
/// ``LoopbackServer`` alike.
///
/// ```swift
/// let body = StreamedBody()
/// server.route("/events") { _ in .eventStream(body) }
/// // … a live resource follows /events …
/// await body.waitUntilOpened()
/// body.send("id: 1\ndata: first\n\n")
/// body.send("data: half of an ev")   // then the connection drops mid-event
/// body.drop()
/// ```
///
/// On the loopback server the body goes out with `Transfer-Encoding: chunked`, each
/// `send(_:)` a chunk: ``end()`` sends the last chunk, ``drop()`` closes the
/// connection without it, which the client sees as a lost connection.
public final class StreamedBody: Sendable {
    /// What the server does next.
    enum Part: Sendable {
        case bytes(Data)
        case end
        case drop
    }

    private struct State {
        var parts: [Part] = []
        var isClosed = false
        var hasClientLeft = false
        /// Takes the parts as they are sent, once a mock transport reads the body.
        var reader: AsyncThrowingStream<Data, any Error>.Continuation?
    }

    private let state = Locked(State())
    private let changed = NSCondition()
    private let producer: (@Sendable (StreamedBody) -> Void)?
    private let opened = CounterSignal()
    private let left = CounterSignal()

    /// Creates a body the test writes with `send(_:)`, ``end()`` and ``drop()``.
    public init() {
        producer = nil
    }

    /// Creates a body that `producer` writes, on a thread of its own, once a client
    /// opens it: a server that generates its events. Stop when `send(_:)` returns
    /// `false`: the client left.
    ///
    /// - Parameter producer: Writes the body; the body is dropped if it returns
    ///   without ending it.
    public init(producing producer: @escaping @Sendable (StreamedBody) -> Void) {
        self.producer = producer
    }

    // MARK: - Writing

    /// Sends `bytes` as the next part of the body.
    ///
    /// - Parameter bytes: What the server writes.
    /// - Returns: `false` once the client left or the body ended: nothing more is read.
    @discardableResult
    public func send(_ bytes: Data) -> Bool {
        append(.bytes(bytes))
    }

    /// Sends `text` in UTF-8 as the next part of the body.
    ///
    /// - Parameter text: What the server writes, such as `"data: 1\n\n"`.
    /// - Returns: `false` once the client left or the body ended.
    @discardableResult
    public func send(_ text: String) -> Bool {
        send(Data(text.utf8))
    }

    /// Ends the body as the server does when it closes the stream.
    public func end() {
        append(.end)
    }

    /// Cuts the connection where the body stands, as a network or a server that falls
    /// over: the client sees the connection lost.
    public func drop() {
        append(.drop)
    }

    /// Whether the client went away: it cancelled, or the server stopped.
    public var hasClientLeft: Bool { state.withLock { $0.hasClientLeft } }

    /// Returns once a client opened the body — or once the calling task is cancelled.
    public func waitUntilOpened() async {
        await opened.wait(for: 1)
    }

    /// Returns once the client went away — or once the calling task is cancelled.
    public func waitUntilClientLeft() async {
        await left.wait(for: 1)
    }

    @discardableResult
    private func append(_ part: Part) -> Bool {
        enum Delivery {
            case refused
            case queued
            case read(AsyncThrowingStream<Data, any Error>.Continuation)
        }
        if producer != nil, case .bytes = part {
            waitForRoom()
        }
        let delivery: Delivery = state.withLock { state in
            guard !state.isClosed, !state.hasClientLeft else { return .refused }
            if case .bytes = part {} else { state.isClosed = true }
            guard let reader = state.reader else {
                state.parts.append(part)
                return .queued
            }
            return .read(reader)
        }
        switch delivery {
        case .refused:
            return false
        case .queued:
            changed.lock()
            changed.broadcast()
            changed.unlock()
        case .read(let reader):
            Self.deliver(part, to: reader)
        }
        return true
    }

    /// Holds a producer while the reader is behind by more than 64 parts, so that a
    /// body generated faster than it is read stays small.
    private func waitForRoom() {
        changed.lock()
        defer { changed.unlock() }
        while state.withLock({ $0.parts.count >= 64 && !$0.hasClientLeft }) {
            changed.wait()
        }
    }

    private static func deliver(
        _ part: Part,
        to reader: AsyncThrowingStream<Data, any Error>.Continuation
    ) {
        switch part {
        case .bytes(let bytes): reader.yield(bytes)
        case .end: reader.finish()
        case .drop: reader.finish(throwing: URLError(.networkConnectionLost))
        }
    }

    // MARK: - Reading

    /// Marks the body opened by a client and starts its producer, if any.
    func open() {
        opened.increment()
        if let producer {
            Thread.detachNewThread { [self] in
                producer(self)
                drop()
            }
        }
    }

    /// Hands every part, those sent already and those to come, to `reader`: how a mock
    /// transport reads the body.
    func read(into reader: AsyncThrowingStream<Data, any Error>.Continuation) {
        let queued = state.withLock { state in
            defer { state.parts = [] }
            state.reader = reader
            return state.parts
        }
        for part in queued {
            Self.deliver(part, to: reader)
        }
    }

    /// The next part, waiting for it at most `timeout`; `nil` when none came by then.
    func next(waitingAtMost timeout: TimeInterval) -> Part? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        changed.lock()
        defer { changed.unlock() }
        while true {
            let part = state.withLock { state in
                state.parts.isEmpty ? nil : state.parts.removeFirst()
            }
            if let part {
                // A producer may wait for room.
                changed.broadcast()
                return part
            }
            if !changed.wait(until: deadline) { return nil }
        }
    }

    /// The client went away: nothing more is read.
    func clientLeft() {
        let first = state.withLock { state in
            defer { state.hasClientLeft = true }
            return !state.hasClientLeft
        }
        guard first else { return }
        left.increment()
        changed.lock()
        changed.broadcast()
        changed.unlock()
    }
}
