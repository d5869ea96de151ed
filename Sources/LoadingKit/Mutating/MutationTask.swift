import LoadingKitNetworking
import Observation

/// A mutation a screen sent, observable while it runs: whether it is in flight, and
/// how it ended — with Observation, so a SwiftUI view or `withObservationTracking`
/// follows it. `A` is the type of the server's answer. Keeping the task is optional:
/// the mutation runs to its end, and calls its completion once, either way.
///
/// ```swift
/// let saving = screen.startSending(rename)
/// saveButton.isEnabled = !saving.isInFlight
/// await saving.finish()
/// if let error = saving.error { showError(error.description) }
/// ```
@MainActor
@Observable
public final class MutationTask<A: Sendable> {
    /// Whether the mutation is in flight.
    public private(set) var isInFlight = true
    /// The server's answer, once the mutation succeeded.
    public private(set) var value: A?
    /// Why the mutation failed; `nil` while in flight, after a success or a
    /// cancellation.
    public private(set) var error: LoadingError?
    /// Whether the mutation ended because it was cancelled.
    public private(set) var wasCancelled = false
    /// The write the outbox keeps for a mutation kept until sent
    /// (``Mutation/keptUntilSent()``) that could not reach its server: it is sent
    /// again later, its change shown meanwhile. `nil` otherwise; ``error`` is `nil` then.
    public private(set) var queuedWrite: QueuedWrite?
    /// How the mutation ended — sent, queued, failed or cancelled — with nothing to
    /// catch; `nil` while in flight.
    public private(set) var outcome: MutationOutcome<A>?
    /// How many of the mutation's optimistic changes named a resource no value is
    /// stored for, so changed nothing shown — a resource that differs from the one a
    /// screen loaded by a header field or its parse, say. The `changeShownNowhere`
    /// event names each.
    public private(set) var changesShownNowhere = 0

    @ObservationIgnored private var task: Task<Void, Never>?

    init() {}

    /// Shows the optimistic changes of `mutation` on the stored values and on every
    /// screen showing them, in this main-actor turn; then sends it through
    /// `webservice` and calls `completion` — once, whether or not anyone keeps the
    /// task: the mutation keeps it until it has ended.
    func start(
        _ mutation: Mutation<A>,
        through webservice: Webservice,
        completion: (@MainActor (MutationTask<A>) -> Void)?
    ) {
        let start = webservice.beginShowingChanges(of: mutation)
        changesShownNowhere = start.changesShownNowhere
        task = Task { @MainActor in
            let outcome: Result<A, WebserviceError>
            do throws(WebserviceError) {
                outcome = .success(
                    try await webservice.completeShowingAnswer(of: mutation, startedAs: start)
                )
            } catch {
                outcome = .failure(error)
            }
            self.end(with: outcome)
            completion?(self)
        }
    }

    private func end(with outcome: Result<A, WebserviceError>) {
        isInFlight = false
        switch outcome {
        case .success(let value):
            self.value = value
            self.outcome = .sent(value)
        case .failure(.cancelled):
            wasCancelled = true
            self.outcome = .cancelled
        case .failure(.queued(let write)):
            queuedWrite = write
            self.outcome = .queued(write)
        case .failure(let error):
            self.error = .webservice(error)
            self.outcome = .failed(.webservice(error))
        }
    }

    /// Cancels the mutation: its optimistic changes are taken back and the values it
    /// changed go stale, since the server may have taken it.
    public func cancel() {
        task?.cancel()
    }

    /// Waits until the mutation has ended and its state says how. When the waiting task
    /// is cancelled, returns at once and leaves the mutation running: ``cancel()`` ends it.
    public func finish() async {
        await task?.waitForEnd()
    }
}
