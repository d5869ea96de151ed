import LoadingKit
import LoadingKitTesting

/// Follows the operations a model test starts through a `HeldTransport`, so that after
/// answering a request the test knows what followed: the operation's next request, or
/// its end. An operation may also end before its request is answered (superseded or
/// cancelled, a waiter leaves a shared request at once), so the tracker re-checks on
/// every event rather than counting them.
@MainActor
final class OperationTracker {
    /// Counts request arrivals and the ends of operations; give it to the transport.
    let events = CounterSignal()
    private var ended: Set<Int> = []
    private var operationOfRequest: [Int: Int] = [:]
    private var nextOperation = 0

    /// Watches the operation `task` finishes, whose first request is `request`.
    func watch(_ task: LoadTask, request: Int) {
        let operation = nextOperation
        nextOperation += 1
        operationOfRequest[request] = operation
        Task { @MainActor in
            await task.finish()
            self.ended.insert(operation)
            self.events.increment()
        }
    }

    /// Waits, after `request` was answered while the newest request pending was
    /// `known`, until its operation sends its next request — returned — or ends.
    func settle(after request: Int, known: Int, on transport: HeldTransport) async -> Int? {
        guard let operation = operationOfRequest[request] else { return nil }
        while true {
            let seen = events.value
            if let following = transport.pending.map(\.id).max(), following > known {
                operationOfRequest[following] = operation
                return following
            }
            if ended.contains(operation) {
                return nil
            }
            await events.wait(for: seen + 1)
        }
    }
}
