import Dispatch
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URLSessionTransport {
    /// One request in flight: the continuation that awaits it, the body received so
    /// far and the rules it is held to. Every transition takes the lock; the
    /// continuation is resumed exactly once, outside it.
    final class Exchange: Sendable {
        private enum Phase {
            /// Registered, but the continuation is not installed yet.
            case pending
            /// The continuation is installed and the task runs.
            case running(CheckedContinuation<(Data, HTTPURLResponse), any Error>)
            /// The outcome is known; it is kept until the continuation arrives.
            case finished(Result<(Data, HTTPURLResponse), any Error>?)
        }

        private struct State {
            var phase = Phase.pending
            var response: HTTPURLResponse?
            var body = Data()
            var expectedBytes: Int64?
        }

        private let state = Locked(State())
        private let task: URLSessionDataTask
        private let limit: Int
        private let progress: TransferProgress.Handler?
        /// Header fields dropped on a redirect to another origin, besides the policy's:
        /// those an authenticator added.
        let credentialFields: Set<String>

        /// The queue that cancels tasks: `URLSessionTask.cancel()` must never run on
        /// the thread that cancels the Swift task.
        static let cancellation = DispatchQueue(label: "LoadingKit.cancellation")

        init(
            task: URLSessionDataTask,
            limit: Int,
            progress: TransferProgress.Handler?,
            credentialFields: Set<String> = []
        ) {
            self.task = task
            self.limit = limit
            self.progress = progress
            self.credentialFields = credentialFields
        }

        /// Installs the continuation; returns whether the task should be resumed. An
        /// exchange cancelled or finished before this resumes the continuation at once.
        func start(
            _ continuation: CheckedContinuation<(Data, HTTPURLResponse), any Error>
        ) -> Bool {
            let early: Result<(Data, HTTPURLResponse), any Error>? = state.withLock { state in
                guard case .finished(let outcome) = state.phase else {
                    state.phase = .running(continuation)
                    return nil
                }
                state.phase = .finished(nil)
                return outcome ?? .failure(CancellationError())
            }
            guard let early else { return true }
            continuation.resume(with: early)
            return false
        }

        /// Ends the exchange as cancelled and cancels the task off this thread.
        func cancel() {
            abort(with: CancellationError())
        }

        /// Ends the exchange at its deadline with `URLError(.timedOut)`.
        func expire() {
            abort(with: URLError(.timedOut))
        }

        /// Ends the exchange with ``ClosedUnanswered``: FoundationNetworking asked for
        /// the body again, to resend the request on a new connection after the kept-alive
        /// one it was sent on closed unanswered, and cannot rewind a body given as data.
        func closedUnanswered() {
            abort(with: ClosedUnanswered())
        }

        /// Ends the exchange with `error` and cancels the task from the cancellation
        /// queue.
        private func abort(with error: any Error) {
            finish(with: .failure(error))
            let task = self.task
            Self.cancellation.async { task.cancel() }
        }

        /// Records the response head; returns whether to go on receiving the body. A
        /// head that ends the exchange cancels the task too: FoundationNetworking ignores
        /// the disposition and would download the body anyway.
        func receive(_ response: URLResponse) -> Bool {
            guard let response = response as? HTTPURLResponse else {
                abort(with: URLError(.badServerResponse))
                return false
            }
            let expected = response.expectedContentLength
            if expected > limit {
                abort(with: WebserviceError.responseTooLarge(.init(limit: limit)))
                return false
            }
            state.withLock { state in
                state.response = response
                state.expectedBytes = expected >= 0 ? expected : nil
                if let expected = state.expectedBytes, expected <= limit {
                    state.body.reserveCapacity(Int(expected))
                }
            }
            return true
        }

        /// Appends a chunk of the body, or aborts the exchange past the size limit.
        func receive(_ data: Data) {
            enum Step {
                case report(TransferProgress)
                case tooLarge
                case ignore
            }
            let step: Step = state.withLock { state in
                guard case .running = state.phase else { return .ignore }
                guard state.body.count + data.count <= limit else { return .tooLarge }
                state.body.append(data)
                return .report(
                    TransferProgress(
                        bytesReceived: Int64(state.body.count),
                        expectedBytes: state.expectedBytes
                    )
                )
            }
            switch step {
            case .report(let report): progress?(report)
            case .tooLarge: abort(with: WebserviceError.responseTooLarge(.init(limit: limit)))
            case .ignore: break
            }
        }

        /// Ends the exchange with the task's outcome.
        func complete(error: (any Error)?) {
            let outcome: Result<(Data, HTTPURLResponse), any Error> = state.withLock { state in
                // A body the server's Content-Length says is longer than what came: the
                // connection closed before its end, which FoundationNetworking reports
                // as an unknown error.
                let cutShort =
                    state.response != nil
                    && state.expectedBytes.map { Int64(state.body.count) < $0 } == true
                if let error {
                    let unknown = (error as? URLError)?.code == .unknown
                    return .failure(cutShort && unknown ? URLError(.networkConnectionLost) : error)
                }
                guard let response = state.response else {
                    return .failure(URLError(.badServerResponse))
                }
                return .success((state.body, response))
            }
            finish(with: outcome)
        }

        private func finish(with outcome: Result<(Data, HTTPURLResponse), any Error>) {
            let continuation = state.withLock { state in
                switch state.phase {
                case .pending:
                    state.phase = .finished(outcome)
                    return CheckedContinuation<(Data, HTTPURLResponse), any Error>?.none
                case .running(let continuation):
                    state.phase = .finished(nil)
                    state.body = Data()
                    return continuation
                case .finished:
                    return nil
                }
            }
            continuation?.resume(with: outcome)
        }
    }

    /// A request whose kept-alive connection closed before any answer, which
    /// FoundationNetworking cannot resend itself: see ``URLSessionTransport``.
    struct ClosedUnanswered: Error {}
}
