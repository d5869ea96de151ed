import Foundation
import LoadingKitNetworking
import LoadingKitTesting

/// The server of the drill: `PUT /writes/ID` applies write ID once per
/// `Idempotency-Key` — a repeated key is answered without applying again — after a
/// short random pause, so that kills land while requests are under way. It can go
/// away and come back on the same port.
final class DrillServer: Sendable {
    private struct State {
        var keys: Set<String> = []
        /// How many times each write was applied, under distinct keys.
        var applied: [Int: Int] = [:]
        var requests = 0
        var withoutKey = 0
    }

    private let state = Locked(State())
    private let server: Locked<LoopbackServer?>
    let port: UInt16

    init() throws {
        let first = try LoopbackServer(fallback: DrillServer.handler(Locked(State())))
        port = first.port
        first.stop()
        server = Locked(nil)
        try start()
    }

    /// How many times each write was applied.
    var applied: [Int: Int] { state.withLock { $0.applied } }
    /// Requests that came without an `Idempotency-Key`.
    var requestsWithoutKey: Int { state.withLock { $0.withoutKey } }
    var requestCount: Int { state.withLock { $0.requests } }

    func start() throws {
        let started = try LoopbackServer(port: port, fallback: Self.handler(state))
        server.withLock { $0 = started }
    }

    func stop() {
        server.withLock {
            $0?.stop()
            $0 = nil
        }
    }

    private static func handler(_ state: Locked<State>) -> LoopbackServer.Handler {
        { request in
            let id = Int(request.path.split(separator: "/").last ?? "")
            guard request.method == "PUT", let id else { return .status(404) }
            let key = request.header("Idempotency-Key")
            state.withLock { state in
                state.requests += 1
                guard let key else {
                    state.withoutKey += 1
                    return
                }
                if state.keys.insert(key).inserted {
                    state.applied[id, default: 0] += 1
                }
            }
            return .json(["id": id]).delayed(by: .microseconds(Int.random(in: 0...3_000)))
        }
    }
}
