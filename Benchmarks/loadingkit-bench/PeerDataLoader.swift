import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The peer's session delegate, on kean/Get's route: each task's handler object is kept
/// in a dictionary keyed by the task, under an `NSLock`; the body is appended to it part
/// by part; at the end it resumes its caller with a response of the task, its data and
/// its metrics.
///
/// ```swift
/// let response = try await loader.start(session.dataTask(with: request))
/// ```
final class PeerDataLoader: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    /// One task's handler.
    private final class Handler {
        var data: Data?
        var metrics: URLSessionTaskMetrics?
        var completion: ((Result<PeerResponse<Data>, any Error>) -> Void)?
    }

    private let lock = NSLock()
    private var handlers: [URLSessionTask: Handler] = [:]

    /// Starts `task` and returns its response once it completes.
    ///
    /// - Parameter task: A data task of the session this loader is the delegate of.
    /// - Returns: The response with its body.
    func start(_ task: URLSessionDataTask) async throws -> PeerResponse<Data> {
        try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { continuation in
                let handler = Handler()
                handler.completion = { continuation.resume(with: $0) }
                self[task] = handler
                task.resume()
            }
        } onCancel: {
            task.cancel()
        }
    }

    private subscript(task: URLSessionTask) -> Handler? {
        get {
            lock.lock()
            defer { lock.unlock() }
            return handlers[task]
        }
        set {
            lock.lock()
            defer { lock.unlock() }
            handlers[task] = newValue
        }
    }

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard let handler = self[dataTask] else { return }
        if handler.data == nil {
            handler.data = Data()
        }
        handler.data!.append(data)
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        didFinishCollecting metrics: URLSessionTaskMetrics
    ) {
        self[task]?.metrics = metrics
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        didCompleteWithError error: (any Error)?
    ) {
        guard let handler = self[task] else { return }
        self[task] = nil
        guard error == nil, let response = task.response as? HTTPURLResponse else {
            handler.completion?(.failure(error ?? URLError(.unknown)))
            return
        }
        let data = handler.data ?? Data()
        handler.completion?(
            .success(
                PeerResponse(
                    value: data,
                    data: data,
                    response: response,
                    task: task,
                    metrics: handler.metrics
                )
            )
        )
    }
}
