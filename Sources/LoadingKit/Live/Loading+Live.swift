import LoadingKitNetworking

// MARK: - Following a live resource

extension Loading {
    /// Follows `live` for as long as the screen is shown: each of its events changes the
    /// store as ``LiveResource/updatingStore(_:)`` says — so the screen, showing a value
    /// it changes, updates — and ``LoadingState/stream`` says whether the connection is
    /// connected, reconnecting (and when next) or stopped (and why).
    ///
    /// ```swift
    /// feed.load(resource: Story.feed)
    /// feed.follow(Story.live.updatingStore { story in [.edit(Story.feed) { $0.insert(story, at: 0) }] })
    /// ```
    ///
    /// ``loadingDidDisappear()`` stops following and ``loadingDidAppear()`` follows
    /// again after the last event received, so that the store catches up with the
    /// events sent meanwhile; the screen's release, and ``stopFollowing()``, stop it. However many
    /// screens follow one live resource, one connection serves them, and each event
    /// reaches all of them in one main-actor turn. Following another live resource
    /// replaces this one.
    ///
    /// - Parameter live: What to follow.
    public func follow<Event: Sendable>(_ live: LiveResource<Event>) {
        let resumption = LiveResumption()
        loading.startFollowing(live, for: self) { [weak self] updates in
            if let raw = updates.last(where: { $0.rawEvent != nil })?.rawEvent {
                resumption.lastEventID = raw.lastEventID
            }
            guard let self,
                let state = updates.last(where: { $0.connectionState != nil })?.connectionState
            else { return }
            loading.update(for: self) { $0.follow(state) }
        } resumingAfter: {
            resumption.lastEventID
        }
    }

    /// Shows a value accumulated from `live`'s events — a chat's messages, a job's log,
    /// an answer streamed token by token — for as long as the screen is shown: the
    /// loading placeholder until the first event, then `initial` changed by `reduce`
    /// with each event, configured as it grows (TanStack Query's `streamedQuery`).
    ///
    /// ```swift
    /// answer.follow(LiveResource<Token>(url: answerURL), startingWith: "") { text, token in
    ///     text += token.text
    /// }
    /// ```
    ///
    /// ``LoadingState/stream`` says how the connection is; a reconnection resumes after
    /// the last event and goes on accumulating, and an error in the stream keeps the
    /// content shown (``LoadingState/error`` says what failed). A stream the server
    /// answers `204` shows `initial`. ``loadingDidDisappear()`` stops following and
    /// ``loadingDidAppear()`` follows again after the last event shown.
    ///
    /// - Parameters:
    ///   - live: What to follow.
    ///   - initial: The value before the first event.
    ///   - restart: What a screen that shows a value shows when it follows again from the
    ///     beginning; ``LiveReload/reset`` by default.
    ///   - reduce: Changes the value with an event, on the main actor.
    public func follow<Event: Sendable>(
        _ live: LiveResource<Event>,
        startingWith initial: ResourceType,
        restart: LiveReload = .reset,
        reducing reduce: @escaping @MainActor (inout ResourceType, Event) -> Void
    ) {
        let accumulation = LiveAccumulation(initial: initial, restart: restart, reduce: reduce)
        accumulation.begin(for: self)
        loading.startFollowing(live, for: self) { [weak self] updates in
            guard let self else { return }
            accumulation.show(updates, on: self)
        } resumingAfter: {
            accumulation.lastEventID
        }
    }

    /// Stops following the live resource the screen follows, if any; what it shows
    /// stays, and ``LoadingState/stream`` is `nil` again.
    public func stopFollowing() {
        guard loading.stopFollowing() else { return }
        loading.update(for: self) { $0.follow(nil) }
    }
}

/// Where a screen that follows a live resource into the store resumes: after the last
/// event it received.
@MainActor
private final class LiveResumption {
    var lastEventID = ""
}
