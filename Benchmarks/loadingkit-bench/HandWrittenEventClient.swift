import Dispatch
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a user writes by hand to follow server-sent events on Linux, where
/// FoundationNetworking has no `bytes(for:)`: a session delegate that splits the body
/// into lines, takes `data:` lines, and hops to the main queue with each event — the
/// baseline of the live rows.
final class HandWrittenEventClient: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var buffer = Data()
    private var data = ""
    private var onEvent: (@MainActor (String) -> Void)?
    private var session: URLSession?

    /// Follows `url` until `total` events were shown, signalling `shown` after each
    /// burst of `burst`.
    @MainActor
    func follow(until total: Int, url: URL, burst: Int, shown: DispatchSemaphore) async {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let session = URLSession(configuration: configuration, delegate: self, delegateQueue: queue)
        self.session = session
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            var count = 0
            var shownValue = 0
            onEvent = { _ in
                count += 1
                shownValue = count
                if count % burst == 0 {
                    shown.signal()
                }
                if count == total {
                    done.resume()
                }
            }
            var request = URLRequest(url: url)
            request.setValue("text/event-stream", forHTTPHeaderField: "Accept")
            session.dataTask(with: request).resume()
            _ = shownValue
        }
        onEvent = nil
        session.invalidateAndCancel()
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        lock.lock()
        buffer.append(data)
        var events: [String] = []
        while let newline = buffer.firstIndex(of: 10) {
            let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
            buffer.removeSubrange(buffer.startIndex...newline)
            if line.isEmpty {
                if !self.data.isEmpty {
                    events.append(self.data)
                    self.data = ""
                }
            } else if line.hasPrefix("data:") {
                self.data = String(line.dropFirst(5).drop { $0 == " " })
            }
        }
        let onEvent = self.onEvent
        lock.unlock()
        for event in events {
            DispatchQueue.main.async {
                MainActor.assumeIsolated { onEvent?(event) }
            }
        }
    }
}
