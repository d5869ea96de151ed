import LoadingKitNetworking

/// Revalidation on a timer (``Loading/revalidationInterval``): after each load ends,
/// one wait on the screen's clock, then a background reload of what it shows. The wait
/// holds the screen weakly; a newer load, ``Loading/loadingDidDisappear()`` and the
/// core's release cancel it, so no timer runs for a screen nothing shows.
extension LoadingCore {
    /// Starts the wait before the next revalidation of `loader`, replacing the one
    /// before, when the screen asks for revalidations.
    func schedulePoll<Loader: Loading>(for loader: Loader) where Loader.ResourceType == Value {
        guard let interval = loader.revalidationInterval else { return }
        let clock = loader.loadingClock
        let poll = Task { @MainActor [weak loader] in
            do {
                try await clock.sleep(for: interval)
            } catch {
                return
            }
            guard let loader else { return }
            _ = Loader.loadingLifecycle.reload(loader, .background)?.task
        }
        flights.withLock { $0.poll.replace(with: poll) }
    }

    /// Cancels the wait before the next revalidation, if any.
    func stopPolling() {
        flights.withLock { $0.poll.replace(with: nil) }
    }
}

extension Task<Void, Never>? {
    /// Cancels this wait and keeps `next` instead.
    fileprivate mutating func replace(with next: Task<Void, Never>?) {
        self?.cancel()
        self = next
    }
}
