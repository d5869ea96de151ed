import Dispatch
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URLSessionTransport: StreamingTransport {
    /// Sends `request` through a session of its own and returns at its response head,
    /// the body streamed from the session delegate as FoundationNetworking delivers it.
    ///
    /// A stream holds its connection for as long as it runs: in a session of its own, it
    /// takes none of the ``Configuration/maximumConnectionsPerHost`` connections the
    /// transport's loads to that host may use. The session is given up when the stream
    /// ends; a stream goes on after the transport is released, until its body ends or
    /// is cancelled.
    ///
    /// Cancelling the calling task before the head, or the body after it, cancels the
    /// `URLSessionTask` from another queue. The redirect rules are a load's: credentials
    /// never follow a redirect to another origin. The body has no size limit and no
    /// deadline — a live resource bounds its lines and keeps its own idle timeout — and
    /// the request waits for its head at most its `timeoutInterval`. What the reader has
    /// not taken yet is kept, 256 KiB in memory and the rest in temporary files, up to
    /// 64 MiB: past it the transfer stops, and the body ends with
    /// ``WebserviceError/responseTooLarge(_:)`` after the chunks kept.
    ///
    /// On Linux the stream's connection is opened first by a bare `OPTIONS` request to
    /// its URL — no header field of the stream's, no cookie, no redirect followed —
    /// whose answer, whatever it is, ends before the stream is sent on the same
    /// connection (``Configuration/opensStreamsWithOptions`` turns it off): FoundationNetworking keeps a dispatch
    /// write source armed for the whole of the first transfer on a new connection, and a
    /// stream that waits for events on it spins a core (measured here: 97 % of a core
    /// for an idle event stream, none once the connection was opened this way). A server
    /// that closes the connection after that answer costs a round trip, and the stream
    /// spins as before; one that answers it with a stream of its own, or not within a
    /// second, gets the stream a second later, on a new connection.
    ///
    /// - Parameter request: The request.
    /// - Returns: The body as it arrives, and the response.
    /// - Throws: `URLError` when the request fails before its head,
    ///   `CancellationError` when the task is cancelled.
    public func stream(_ request: URLRequest) async throws -> (ResponseBody, HTTPURLResponse) {
        let delegate = SessionDelegate(redirects: configuration.redirects)
        let session = URLSession(
            configuration: Self.sessionConfiguration(for: configuration),
            delegate: delegate,
            delegateQueue: DelegateQueue()
        )
        let request = prepared(request)
        #if canImport(FoundationNetworking)
            if configuration.opensStreamsWithOptions, let url = request.url {
                await Self.openConnection(to: url, in: session)
            }
            guard !Task.isCancelled else {
                session.invalidateAndCancel()
                throw CancellationError()
            }
        #endif
        let task = session.dataTask(with: request)
        // Invalidated once its one task ended, the session lets its delegate go.
        session.finishTasksAndInvalidate()
        let exchange = StreamExchange(task: task, credentialFields: Self.credentialFields)
        delegate.register(exchange, for: task)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                if exchange.start(continuation) {
                    task.resume()
                }
            }
        } onCancel: {
            exchange.cancel()
        }
    }

    /// How long a stream waits for the `OPTIONS` that opens its connection, in seconds.
    private static let openingWait = 1.0

    /// Sends a bare `OPTIONS` request to `url` in `session` and returns once it ended —
    /// answered or not — or once ``openingWait`` passed, cancelling it, or the calling
    /// task is cancelled: the request sent next reuses its connection when it ended. A
    /// server that answers `OPTIONS` as it answers the stream, never ending it, or
    /// slowly, gets the stream a second later, on a connection of its own. The session's
    /// delegate follows no redirect of it.
    ///
    /// - Parameters:
    ///   - url: The stream's URL.
    ///   - session: The stream's session.
    private static func openConnection(to url: URL, in session: URLSession) async {
        var options = URLRequest(url: url)
        options.httpMethod = "OPTIONS"
        options.httpShouldHandleCookies = false
        let ended = OneShot<Void>()
        let task = session.dataTask(with: options) { _, _, _ in ended.fire(()) }
        // Weak: a task that ended, and its session, are not held for the wait.
        Exchange.cancellation.asyncAfter(deadline: .now() + openingWait) { [weak task] in
            ended.fire(())
            task?.cancel()
        }
        await withTaskCancellationHandler {
            task.resume()
            await ended.wait()
        } onCancel: {
            ended.fire(())
            Exchange.cancellation.async { task.cancel() }
        }
    }

    /// One streamed request: the continuation awaiting its head, then the body's
    /// continuation, fed chunk by chunk. Every transition takes the lock; continuations
    /// are resumed outside it.
    final class StreamExchange: Sendable {
        typealias Head = CheckedContinuation<(ResponseBody, HTTPURLResponse), any Error>

        private enum Phase {
            /// Registered; the head's continuation is not installed yet.
            case pending
            /// The head is awaited.
            case awaitingHead(Head)
            /// The head was handed over; the body flows.
            case streaming
            /// Ended before the head was awaited, with this outcome.
            case ended(any Error)
            /// Over.
            case finished
        }

        private let phase = Locked(Phase.pending)
        private let task: URLSessionDataTask
        private let body: ResponseBody
        private let relay: ChunkRelay
        /// Header fields dropped on a redirect to another origin, besides the policy's.
        let credentialFields: Set<String>

        init(task: URLSessionDataTask, credentialFields: Set<String>) {
            self.task = task
            self.credentialFields = credentialFields
            let (body, chunks) = ResponseBody.makeBody {
                Exchange.cancellation.async { task.cancel() }
            }
            relay = ChunkRelay(streamingInto: chunks)
            self.body = body.relayed(by: relay)
        }

        /// Installs the head's continuation; returns whether the task should be
        /// resumed. An exchange that ended before this resumes it at once.
        func start(_ continuation: Head) -> Bool {
            let early: (any Error)? = phase.withLock { phase in
                guard case .ended(let error) = phase else {
                    phase = .awaitingHead(continuation)
                    return nil
                }
                phase = .finished
                return error
            }
            guard let early else { return true }
            continuation.resume(throwing: early)
            return false
        }

        /// Ends the exchange as cancelled: before the head, the awaiting caller throws
        /// `CancellationError`; after it, only the body can cancel.
        func cancel() {
            cancel(with: CancellationError())
        }

        /// Ends the wait for the head with `error` and cancels the task.
        func cancel(with error: any Error) {
            guard end(with: error) else { return }
            let task = self.task
            Exchange.cancellation.async { task.cancel() }
        }

        /// Hands the head over; returns whether to go on receiving the body.
        func receive(_ response: URLResponse) -> Bool {
            guard let response = response as? HTTPURLResponse else {
                cancel()
                return false
            }
            let head: Head? = phase.withLock { phase in
                guard case .awaitingHead(let head) = phase else { return nil }
                phase = .streaming
                return head
            }
            head?.resume(returning: (body, response))
            return head != nil
        }

        /// Passes a chunk of the body on. FoundationNetworking cannot pause a transfer
        /// (a suspended data task does not go on where it stopped): a reader far behind
        /// leaves the chunks waiting in the relay, past 256 KiB in temporary files. When
        /// the relay wants no more — over, or a chunk it could not keep — the transfer
        /// stops; the body's stream is left to the relay, which ends it after the chunks
        /// kept, with the error that stopped them.
        func receive(_ data: Data) {
            if !relay.receive(data) {
                let task = self.task
                Exchange.cancellation.async { task.cancel() }
            }
        }

        /// Ends the body, or the wait for the head, with the task's outcome.
        func complete(error: (any Error)?) {
            let isStreaming = phase.withLock { phase in
                guard case .streaming = phase else { return false }
                phase = .finished
                return true
            }
            guard isStreaming else {
                // No head came: the body never began.
                _ = end(with: error ?? URLError(.badServerResponse))
                return
            }
            if let error {
                let code = (error as? URLError)?.code
                // libcurl reports a body cut short as an unknown error.
                relay.finish(throwing: code == .unknown ? URLError(.networkConnectionLost) : error)
            } else {
                relay.finish(throwing: nil)
            }
        }

        /// Ends the wait for the head with `error`; returns whether it was still
        /// awaited or not yet installed.
        private func end(with error: any Error) -> Bool {
            let head: Head?? = phase.withLock { phase in
                switch phase {
                case .pending:
                    phase = .ended(error)
                    return .some(nil)
                case .awaitingHead(let head):
                    phase = .finished
                    return .some(head)
                case .streaming, .ended, .finished:
                    return nil
                }
            }
            guard let head else { return false }
            head?.resume(throwing: error)
            return true
        }
    }
}
