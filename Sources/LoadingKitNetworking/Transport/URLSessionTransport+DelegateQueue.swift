import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URLSessionTransport {
    /// The session's delegate queue.
    ///
    /// FoundationNetworking hands every delegate callback — the response, each part of
    /// the body, each part of an upload, the end — to the delegate queue as an
    /// operation, and each operation wakes a thread: a `PATCH` costs four hand-offs
    /// where a completion handler costs one. The transport's callbacks never wait (a
    /// lock, an append, a continuation resumed; a cancellation goes to another queue),
    /// so on Linux this queue runs each one at once, on the session's own serial queue
    /// that delivers it, in the order delivered. A stream's callbacks also frame,
    /// decode and store the live events of each part of its body: each stream has a
    /// session of its own, so that work delays no other request. Elsewhere it is a
    /// plain serial queue: another platform's `URLSession` may call it in ways this
    /// one does not.
    final class DelegateQueue: OperationQueue, @unchecked Sendable {
        override init() {
            super.init()
            name = "LoadingKit.URLSessionTransport"
            maxConcurrentOperationCount = 1
        }

        #if canImport(FoundationNetworking)
            override func addOperation(_ block: @escaping @Sendable () -> Void) {
                block()
            }
        #endif
    }
}
