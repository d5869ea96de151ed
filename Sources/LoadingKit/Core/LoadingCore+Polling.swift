import LoadingKitNetworking

/// Revalidation on a timer (``Loading/revalidationInterval``): after each load ends,
/// one wait on the screen's clock, then a background reload of what it shows. The wait
/// holds the screen weakly; a newer load and the core's release cancel it, and from
/// ``Loading/loadingDidDisappear()`` to ``Loading/loadingDidAppear()`` none starts,
/// so no timer runs for a screen nothing shows.
extension LoadingCore {
    /// Starts the wait before the next revalidation of `loader`, replacing the one
    /// before, when the screen asks for revalidations and its view is there.
    func schedulePoll<Loader: Loading>(for loader: Loader) where Loader.ResourceType == Value {
        guard let interval = loader.revalidationInterval,
            !flights.withLock({ $0.isPollingPaused })
        else { return }
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
        flights.withLock { flights in
            // Paused while the task was made: it never waits.
            flights.poll.replace(with: flights.isPollingPaused ? nil : poll)
        }
    }

    /// Cancels the wait before the next revalidation and starts none until
    /// ``resumePolling()``: the screen's view is gone.
    func pausePolling() {
        flights.withLock { flights in
            flights.isPollingPaused = true
            flights.poll.replace(with: nil)
        }
    }

    /// Lets revalidations wait again: the screen's view is back.
    func resumePolling() {
        flights.withLock { $0.isPollingPaused = false }
    }
}

extension Task<Void, Never>? {
    /// Cancels this wait and keeps `next` instead.
    fileprivate mutating func replace(with next: Task<Void, Never>?) {
        self?.cancel()
        self = next
    }
}
