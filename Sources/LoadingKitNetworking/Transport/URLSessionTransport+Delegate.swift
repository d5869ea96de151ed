import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URLSessionTransport {
    /// The session delegate: routes each callback to the exchange of its task.
    ///
    /// `URLSessionDelegate` refines `Sendable` on Linux; the only state is the
    /// exchange table, behind a lock.
    final class SessionDelegate: NSObject, URLSessionDataDelegate, Sendable {
        private let exchanges = Locked<[Int: Exchange]>([:])
        private let redirects: RedirectPolicy

        init(redirects: RedirectPolicy) {
            self.redirects = redirects
        }

        func register(_ exchange: Exchange, for task: URLSessionTask) {
            exchanges.withLock { $0[task.taskIdentifier] = exchange }
        }

        private func exchange(for task: URLSessionTask) -> Exchange? {
            exchanges.withLock { $0[task.taskIdentifier] }
        }

        func urlSession(
            _ session: URLSession,
            dataTask: URLSessionDataTask,
            didReceive response: URLResponse,
            completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
        ) {
            let proceed = exchange(for: dataTask)?.receive(response) ?? false
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
            var policy = redirects
            policy.credentialHeaders.formUnion(exchange(for: task)?.credentialFields ?? [])
            completionHandler(policy.request(following: request, from: origin))
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data)
        {
            exchange(for: dataTask)?.receive(data)
        }

        func urlSession(
            _ session: URLSession,
            task: URLSessionTask,
            didCompleteWithError error: (any Error)?
        ) {
            let exchange = exchanges.withLock { $0.removeValue(forKey: task.taskIdentifier) }
            exchange?.complete(error: error)
        }
    }
}
