import Foundation
import LoadingKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The design users would otherwise pick, written here as a second baseline: an actor
/// client in the manner of kean/Get — a session whose delegate collects each body on
/// its own `OperationQueue`, `Accept: application/json` unless the request sets one, a
/// 2xx status checked, the decode in a detached task, a hop back to the actor. No
/// dependency: the shape is what is measured, not another package.
actor PeerClient {
    private let session: URLSession
    private let delegate = PeerSessionDelegate()

    init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: queue)
    }

    deinit {
        session.invalidateAndCancel()
    }

    /// The value at `url`, decoded from JSON.
    func value<T: Decodable & Sendable>(_ type: T.Type, at url: URL) async throws -> T {
        var request = URLRequest(url: url)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        let task = session.dataTask(with: request)
        let data = try await body(of: task)
        guard let response = task.response as? HTTPURLResponse,
            (200..<300).contains(response.statusCode)
        else {
            throw URLError(.badServerResponse)
        }
        return try await Task.detached { try JSONDecoder().decode(T.self, from: data) }.value
    }

    private func body(of task: URLSessionDataTask) async throws -> Data {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                delegate.expect(task, continuation)
                task.resume()
            }
        } onCancel: {
            task.cancel()
        }
    }
}

/// Collects the body of each task and resumes its caller when it completes.
final class PeerSessionDelegate: NSObject, URLSessionDataDelegate, Sendable {
    private struct Pending {
        var body = Data()
        let continuation: CheckedContinuation<Data, any Error>
    }

    private let pending = Locked<[Int: Pending]>([:])

    func expect(_ task: URLSessionTask, _ continuation: CheckedContinuation<Data, any Error>) {
        pending.withLock { $0[task.taskIdentifier] = Pending(continuation: continuation) }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        pending.withLock { $0[dataTask.taskIdentifier]?.body.append(data) }
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        didCompleteWithError error: (any Error)?
    ) {
        guard let done = pending.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else {
            return
        }
        if let error {
            done.continuation.resume(throwing: error)
        } else {
            done.continuation.resume(returning: done.body)
        }
    }
}
