import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URLSessionTransport {
    /// The session delegate: routes each callback to the exchange of its task.
    ///
    /// `URLSessionDelegate` refines `Sendable` on Linux; the only state is the
    /// exchange tables, behind locks. A streamed request has a table of its own, read
    /// only when the table of whole responses has no exchange for a task.
    final class SessionDelegate: NSObject, URLSessionDataDelegate, Sendable {
        private let exchanges = Locked<[Int: Exchange]>([:])
        private let streams = Locked<[Int: StreamExchange]>([:])
        private let redirects: RedirectPolicy

        init(redirects: RedirectPolicy) {
            self.redirects = redirects
        }

        func register(_ exchange: Exchange, for task: URLSessionTask) {
            exchanges.withLock { $0[task.taskIdentifier] = exchange }
        }

        func register(_ exchange: StreamExchange, for task: URLSessionTask) {
            streams.withLock { $0[task.taskIdentifier] = exchange }
        }

        private func exchange(for task: URLSessionTask) -> Exchange? {
            exchanges.withLock { $0[task.taskIdentifier] }
        }

        private func stream(for task: URLSessionTask) -> StreamExchange? {
            streams.withLock { $0[task.taskIdentifier] }
        }

        func urlSession(
            _ session: URLSession,
            dataTask: URLSessionDataTask,
            didReceive response: URLResponse,
            completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
        ) {
            let proceed =
                if let exchange = exchange(for: dataTask) {
                    exchange.receive(response)
                } else {
                    stream(for: dataTask)?.receive(response) ?? false
                }
            completionHandler(proceed ? .allow : .cancel)
        }

        /// Follows a redirect as the policy says, measured against the URL the
        /// request was first sent to; FoundationNetworking would otherwise carry every
        /// header field to any origin.
        func urlSession(
            _ session: URLSession,
            task: URLSessionTask,
            willPerformHTTPRedirection response: HTTPURLResponse,
            newRequest request: URLRequest,
            completionHandler: @escaping (URLRequest?) -> Void
        ) {
            guard let origin = task.originalRequest?.url else {
                completionHandler(nil)
                return
            }
            // A task of neither table is the OPTIONS that opens a stream's connection:
            // it needs no other server.
            guard
                let credentialFields = exchange(for: task)?.credentialFields
                    ?? stream(for: task)?.credentialFields
            else {
                completionHandler(nil)
                return
            }
            var policy = redirects
            policy.credentialHeaders.formUnion(credentialFields)
            completionHandler(policy.request(following: request, from: origin))
        }

        /// Called when libcurl resends a request whose kept-alive connection closed
        /// unanswered and must rewind its body: FoundationNetworking cannot rewind one
        /// given as data (it would send the head again and no body, and wait for an
        /// answer until the timeout), so the request ends here, to be sent again whole.
        func urlSession(
            _ session: URLSession,
            task: URLSessionTask,
            needNewBodyStream completionHandler: @escaping (InputStream?) -> Void
        ) {
            completionHandler(nil)
            if let exchange = exchange(for: task) {
                exchange.closedUnanswered()
            } else {
                stream(for: task)?.cancel(with: URLError(.networkConnectionLost))
            }
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data)
        {
            if let exchange = exchange(for: dataTask) {
                exchange.receive(data)
            } else {
                stream(for: dataTask)?.receive(data)
            }
        }

        func urlSession(
            _ session: URLSession,
            task: URLSessionTask,
            didCompleteWithError error: (any Error)?
        ) {
            if let exchange = exchanges.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) {
                exchange.complete(error: error)
            } else {
                streams.withLock { $0.removeValue(forKey: task.taskIdentifier) }?
                    .complete(error: error)
            }
        }
    }
}
