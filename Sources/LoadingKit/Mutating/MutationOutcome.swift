import LoadingKitNetworking

/// How a mutation a screen started ended: read from ``MutationTask/outcome``, with
/// nothing to catch. `A` is the type of the server's answer.
///
/// ```swift
/// let saving = screen.startSending(rename)
/// await saving.finish()
/// switch saving.outcome {
/// case .sent(let saved): print("Saved “\(saved.title)”")
/// case .queued: print("Saved on this device; sent when the server is back")
/// case .failed(let error): print(error.description)  // the change was taken back
/// case .cancelled, nil: break
/// }
/// ```
public enum MutationOutcome<A: Sendable>: Sendable {
    /// The server took the mutation and answered this.
    case sent(A)
    /// The write waits in the outbox, its change shown: sent again once the server is
    /// back (a mutation ``Mutation/keptUntilSent()``).
    case queued(QueuedWrite)
    /// The mutation failed and its change was taken back.
    case failed(LoadingError)
    /// The mutation was cancelled: its change was taken back.
    case cancelled
}
