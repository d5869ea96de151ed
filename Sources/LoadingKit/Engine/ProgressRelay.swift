import LoadingKitNetworking

/// Passes a transfer's progress to the main actor, at most once per percent.
///
/// The report that completes a body is dropped: the value is applied right after,
/// so a small response costs no extra main-actor hop.
final class ProgressRelay: Sendable {
    private let lastFraction = Locked<Double>(0)
    private let deliver: @MainActor @Sendable (Double) -> Void

    init(deliver: @escaping @MainActor @Sendable (Double) -> Void) {
        self.deliver = deliver
    }

    /// Receives a transport's report, on the transport's queue.
    func report(_ progress: TransferProgress) {
        guard let fraction = progress.fractionCompleted, fraction < 1 else { return }
        let isNews = lastFraction.withLock { last in
            guard fraction - last >= 0.01 else { return false }
            last = fraction
            return true
        }
        guard isNews else { return }
        let deliver = self.deliver
        Task { @MainActor in deliver(fraction) }
    }
}
