import Foundation
import LoadingKit
import LoadingKitNetworking
import LoadingKitTesting

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A transport whose every request waits until the test answers it — also after its
/// task was cancelled, as a response already on its way would.
final class HeldTransport: Transport {
    struct Pending: Sendable {
        let id: Int
        let request: URLRequest
        /// The fetch that sent it.
        let fetch: Fetch?

        /// Whether a caller still wants its answer: a request of a fetch that every
        /// caller has left (or is about to) answers nobody.
        var isWanted: Bool { fetch?.isWanted ?? true }
    }

    private struct State {
        var nextID = 0
        var pending: [Int: (Pending, CheckedContinuation<(Data, HTTPURLResponse), any Error>)] = [:]
    }

    private let state = Locked(State())
    private let arrived = CounterSignal()
    private let progress: CounterSignal?

    /// Creates a transport; `progress`, when given, also counts every arrival.
    init(signalling progress: CounterSignal? = nil) {
        self.progress = progress
    }

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let fetch = Fetch.enclosing
        return try await withCheckedThrowingContinuation { continuation in
            state.withLock { state in
                let id = state.nextID
                state.nextID += 1
                state.pending[id] = (Pending(id: id, request: request, fetch: fetch), continuation)
            }
            arrived.increment()
            progress?.increment()
        }
    }

    /// The requests waiting for an answer, oldest first.
    var pending: [Pending] {
        state.withLock { $0.pending.values.map(\.0).sorted { $0.id < $1.id } }
    }

    /// How many requests have arrived in all.
    var arrivals: Int { arrived.value }

    /// Returns once `count` requests in all have arrived.
    func waitForArrivals(_ count: Int) async {
        await arrived.wait(for: count)
    }

    /// Answers request `id`.
    func answer(_ id: Int, with outcome: Result<(Data, HTTPURLResponse), any Error>) {
        let continuation = state.withLock { $0.pending.removeValue(forKey: id)?.1 }
        continuation?.resume(with: outcome)
    }
}
