import LoadingKitNetworking

/// Revalidation on a timer (``Loading/revalidationInterval``): after each load ends —
/// or is skipped, its content current, when no wait is under way — one wait on the
/// screen's clock, then a background reload of what it shows. The wait holds the
/// screen weakly; a newer load and the core's release cancel it, and from
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
        let poll = Task { @MainActor [weak self, weak loader] in
            do {
                try await clock.sleep(for: interval)
            } catch {
                return
            }
            // Not cancelled: still the wait of the core, which now has none.
            guard let self, let loader else { return }
            flights.withLock { $0.poll = nil }
            // Another screen's answer, shown here within the interval, is as fresh as
            // a request would make it: wait again instead.
            if let loadedAt = current.loadedAt,
                loadedAt.duration(to: clock.continuousNow) < interval
            {
                schedulePoll(for: loader)
                return
            }
            _ = Loader.loadingLifecycle.reload(loader, .background)?.task
        }
        flights.withLock { flights in
            // Paused while the task was made: it never waits.
            flights.poll.replace(with: flights.isPollingPaused ? nil : poll)
        }
    }

    /// Reports a load skipped, its content current, and starts the wait before the next
    /// revalidation when none is under way: content a screen shows from the store, or
    /// that another screen loaded, is revalidated on its interval too.
    func skip<Loader: Loading>(for loader: Loader) where Loader.ResourceType == Value {
        report(.skipped, for: loader)
        if flights.withLock({ $0.poll == nil }) {
            schedulePoll(for: loader)
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
