import Dispatch
import Foundation
import LoadingKitNetworking

extension LoopbackServer {
    /// The running server: its sockets, threads and shared state. Threads hold the
    /// core, never the ``LoopbackServer``, so releasing the server stops it.
    final class Core: Sendable {

        struct Connections {
            var open: [Int32: Socket] = [:]
            var accepted = 0
            var isStopped = false
        }

        let routes = Locked<[String: Handler]>([:])
        let requests = Locked<[Request]>([])
        let received = CounterSignal()
        let connections = Locked(Connections())
        let port: UInt16
        private let listener: Socket
        private let fallback: Handler
        private let threads = DispatchGroup()
        /// Signalled on stop, so delayed responses wake at once.
        private let stopped = NSCondition()
        private let stopOnce = Locked(false)

        init(port: UInt16, fallback: @escaping Handler) throws {
            listener = try Socket.listening(port: port)
            self.port = listener.port
            self.fallback = fallback
        }

        func start() {
            spawn { [self] in
                while let connection = listener.accept() {
                    let admitted = connections.withLock { state in
                        guard !state.isStopped else { return false }
                        state.open[connection.descriptor] = connection
                        state.accepted += 1
                        return true
                    }
                    guard admitted else {
                        connection.close()
                        break
                    }
                    spawn { [self] in
                        var served = Connection(socket: connection, core: self)
                        served.serve()
                        connections.withLock {
                            _ = $0.open.removeValue(forKey: connection.descriptor)
                        }
                        connection.close()
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
            let open = connections.withLock { state in
                state.isStopped = true
                return Array(state.open.values)
            }
            stopped.lock()
            stopped.broadcast()
            stopped.unlock()
            listener.shutdown()
            for connection in open {
                connection.shutdown()
            }
            threads.wait()
            listener.close()
        }

        var isStopped: Bool { connections.withLock { $0.isStopped } }

        /// Records `request` and picks its handler.
        func handler(for request: Request) -> Handler {
            requests.withLock { $0.append(request) }
            received.increment()
            return routes.withLock { $0["\(request.method) \(request.path)"] } ?? fallback
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
