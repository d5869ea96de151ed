import Dispatch
import Foundation
import LoadingKitNetworking

extension LoopbackServer {
    /// What a server keeps while it is away: its routes and what it received.
    final class Record: Sendable {
        let routes = Locked<[String: Handler]>([:])
        let requests = Locked<[Request]>([])
        let received = CounterSignal()
        let accepted = Locked(0)
        let fallback: Handler
        /// Whether ``requests`` keeps each request, or only counts it.
        let keepsRequests: Bool

        init(fallback: @escaping Handler, keepsRequests: Bool) {
            self.fallback = fallback
            self.keepsRequests = keepsRequests
        }
    }

    /// The running server: its sockets and threads, and the record it shares with the
    /// cores that ran on its port before it. Threads hold the core, never the
    /// ``LoopbackServer``, so releasing the server stops it.
    final class Core: Sendable {

        struct Connections {
            var open: [Int32: Socket] = [:]
            var isStopped = false
        }

        let record: Record
        let connections = Locked(Connections())
        let port: UInt16
        private let listener: Socket
        private let threads = DispatchGroup()
        /// Signalled on stop, so delayed responses wake at once.
        private let stopped = NSCondition()
        private let stopOnce = Locked(false)

        init(port: UInt16, record: Record) throws {
            listener = try Socket.listening(port: port)
            self.port = listener.port
            self.record = record
        }

        func start() {
            spawn { [self] in
                while let connection = listener.accept() {
                    let admitted = connections.withLock { state in
                        guard !state.isStopped else { return false }
                        state.open[connection.descriptor] = connection
                        return true
                    }
                    guard admitted else {
                        connection.close()
                        break
                    }
                    record.accepted.withLock { $0 += 1 }
                    spawn { [self] in
                        var served = Connection(socket: connection, core: self)
                        served.serve()
                        // Closed under the lock `stop()` shuts connections down under:
                        // it never shuts down a descriptor closed and reused meanwhile.
                        connections.withLock { state in
                            _ = state.open.removeValue(forKey: connection.descriptor)
                            connection.close()
                        }
                    }
                }
            }
        }

        func stop() {
            let first = stopOnce.withLock { done in
                defer { done = true }
                return !done
            }
            guard first else { return }
            connections.withLock { state in
                state.isStopped = true
                for connection in state.open.values {
                    connection.shutdown()
                }
            }
            stopped.lock()
            stopped.broadcast()
            stopped.unlock()
            listener.shutdown()
            threads.wait()
            listener.close()
        }

        var isStopped: Bool { connections.withLock { $0.isStopped } }

        /// Records `request` and picks its handler.
        func handler(for request: Request) -> Handler {
            if record.keepsRequests {
                record.requests.withLock { $0.append(request) }
            }
            record.received.increment()
            return record.routes.withLock { $0["\(request.method) \(request.path)"] }
                ?? record.fallback
        }

        /// Waits for `delay`; returns `false` when the server stopped meanwhile.
        func wait(_ delay: Duration) -> Bool {
            guard delay > .zero else { return !isStopped }
            let seconds =
                Double(delay.components.seconds)
                + Double(delay.components.attoseconds) / 1e18
            let deadline = Date(timeIntervalSinceNow: seconds)
            stopped.lock()
            defer { stopped.unlock() }
            while !isStopped {
                if !stopped.wait(until: deadline) {
                    return !isStopped
                }
            }
            return false
        }

        private func spawn(_ body: @escaping @Sendable () -> Void) {
            threads.enter()
            let group = threads
            Thread.detachNewThread {
                body()
                group.leave()
            }
        }
    }
}
