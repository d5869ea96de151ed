import LoadingKitNetworking

/// Revalidation on a timer (``Loading/revalidationInterval``): after each load ends —
/// or is skipped, its content current, when no wait is under way — one wait on the
/// screen's clock, then a background reload of what it shows. The wait holds the
/// screen weakly; a newer load and the core's release cancel it, and from
/// ``Loading/loadingDidDisappear()`` to ``Loading/loadingDidAppear()`` none starts,
/// so no timer runs for a screen nothing shows.
extension LoadingCore {
    /// Starts the wait before the next revalidation of `loader` — the interval, or
    /// `wait` — replacing the one before, when the screen asks for revalidations and
    /// its view is there.
    func schedulePoll<Loader: Loading>(
        for loader: Loader,
        after wait: Duration? = nil
    ) where Loader.ResourceType == Value {
        guard let interval = loader.revalidationInterval,
            !guarded.withLock({ $0.isPollingPaused })
        else { return }
        let clock = loader.loadingClock
        let number = guarded.withLock { guarded in
            guarded.pollNumber += 1
            return guarded.pollNumber
        }
        let poll = Task { @MainActor [weak self, weak loader] in
            do {
                try await clock.sleep(for: wait ?? interval)
            } catch {
                return
            }
            guard let self, let loader,
                guarded.withLock({ guarded in
                    // Still the core's wait, which now has none; else replaced since.
                    guard guarded.pollNumber == number else { return false }
                    guarded.poll = nil
                    return true
                })
            else { return }
            // Another screen's answer, stored when its request ended but not yet
            // applied, is shown now: no request after the shared one has ended.
            if mirrorsStoredValue, let identity = stateIdentity,
                let entry = loader.webservice.store.entry(for: identity)
            {
                show(entry, of: loader.webservice, for: loader)
            }
            // Another screen's answer, shown here within the interval or confirming
            // what is shown, is as fresh as a request would make it: wait for the rest
            // of the interval instead.
            if let loadedAt = [current.loadedAt, confirmedAt].compactMap(\.self).max() {
                let age = loadedAt.duration(to: clock.continuousNow)
                if age < interval {
                    schedulePoll(for: loader, after: interval - age)
                    return
                }
            }
            _ = Loader.kind.reload(loader, .background)?.task
        }
        guarded.withLock { guarded in
            // Paused while the task was made: it never waits.
            guarded.poll.replace(with: guarded.isPollingPaused ? nil : poll)
        }
    }

    /// Reports a load skipped, its content current, and starts the wait before the next
    /// revalidation when none is under way: content a screen shows from the store, or
    /// that another screen loaded, is revalidated on its interval too.
    func skip<Loader: Loading>(for loader: Loader) where Loader.ResourceType == Value {
        report(.skipped, for: loader)
        if guarded.withLock({ $0.poll == nil }) {
            schedulePoll(for: loader)
        }
    }

    /// Cancels the wait before the next revalidation and starts none until
    /// ``resumePolling()``: the screen's view is gone.
    func pausePolling() {
        guarded.withLock { guarded in
            guarded.isPollingPaused = true
            guarded.pollNumber += 1
            guarded.poll.replace(with: nil)
        }
    }

    /// Lets revalidations wait again: the screen's view is back.
    func resumePolling() {
        guarded.withLock { $0.isPollingPaused = false }
    }
}

extension Task<Void, Never>? {
    /// Cancels this wait and keeps `next` instead.
    fileprivate mutating func replace(with next: Task<Void, Never>?) {
        self?.cancel()
        self = next
    }
}
