import LoadingKitNetworking

/// The screens following one live resource of one webservice: one follower of its
/// connection that hands each update to every screen in one main-actor turn.
///
/// ```swift
/// let membership = LiveHub.join(stories, of: webservice) { updates in
///     screen.show(updates)
/// }
/// membership.end()  // the last screen to leave stops following
/// ```
///
/// Screens join and leave from the main actor or, as a screen's core is released, from
/// any thread: the handlers are behind a lock, and the last one leaving stops the
/// follower at once, which closes the connection.
final class LiveHub<Event: Sendable>: Sendable {
    /// Shows updates on one screen — the events of one chunk of the body together, in
    /// one turn.
    typealias Handler = @MainActor @Sendable ([LiveUpdate<Event>]) -> Void

    private struct State {
        var handlers: [(id: UInt64, handler: Handler)] = []
        var lastHandler: UInt64 = 0
        var current = LiveConnectionState.connecting
        var isClosed = false
    }

    private let state = Locked(State())
    private let following: LiveFollowing<Event>
    private let key: LiveHubKey

    private init(following: LiveFollowing<Event>, key: LiveHubKey) {
        self.following = following
        self.key = key
    }

    /// Adds `handler` to the screens following `live` on `webservice`, starting to
    /// follow it when none did; `handler` is told the connection's state at once.
    @MainActor
    static func join(
        _ live: LiveResource<Event>,
        of webservice: Webservice,
        handler: @escaping Handler
    ) -> LiveMembership {
        let key = LiveHubKey(webservice: ObjectIdentifier(webservice), identity: live.identity)
        let (hub, id, current, isNew) = liveHubs.withLock { hubs in
            if let hub = hubs[key] as? LiveHub, let (id, current) = hub.add(handler) {
                return (hub, id, current, false)
            }
            let hub = LiveHub(following: webservice.follow(live), key: key)
            hubs[key] = hub
            let (id, current) = hub.add(handler)!
            return (hub, id, current, true)
        }
        if isNew {
            hub.following.forward(to: { hub.deliver($0) }, ended: { hub.close() })
        }
        handler([.state(current)])
        return LiveMembership { hub.remove(id) }
    }

    /// Adds `handler`; `nil` once the hub closed.
    private func add(_ handler: @escaping Handler) -> (UInt64, LiveConnectionState)? {
        state.withLock { state in
            guard !state.isClosed else { return nil }
            state.lastHandler += 1
            state.handlers.append((state.lastHandler, handler))
            return (state.lastHandler, state.current)
        }
    }

    /// Takes handler `id` away; the last one stops following.
    private func remove(_ id: UInt64) {
        let isLast = state.withLock { state in
            state.handlers.removeAll { $0.id == id }
            guard state.handlers.isEmpty, !state.isClosed else { return false }
            state.isClosed = true
            return true
        }
        guard isLast else { return }
        forget()
        following.stop()
    }

    /// Hands `updates` to every screen, in this main-actor turn.
    @MainActor
    private func deliver(_ updates: [LiveUpdate<Event>]) {
        let handlers = state.withLock { state in
            if let new = updates.last(where: { $0.connectionState != nil })?.connectionState {
                state.current = new
            }
            return state.handlers.map { $0.handler }
        }
        for handler in handlers {
            handler(updates)
        }
    }

    /// The stream stopped for good: a screen that follows again opens a new one.
    private func close() {
        state.withLock { $0.isClosed = true }
        forget()
    }

    private func forget() {
        liveHubs.withLock { hubs in
            if hubs[key] === self {
                hubs[key] = nil
            }
        }
    }
}

/// A live resource of a webservice, as the hubs are kept.
struct LiveHubKey: Hashable, Sendable {
    let webservice: ObjectIdentifier
    let identity: ResourceIdentity
}

/// The hubs of the process, one per live resource of a webservice that screens follow.
/// A hub keeps its webservice alive, so its number is not reused while it is here.
private let liveHubs = Locked<[LiveHubKey: AnyObject]>([:])

/// A screen's place among the followers of a live resource: ending it — once — takes
/// the screen away.
final class LiveMembership: Sendable {
    private let leave: Locked<(@Sendable () -> Void)?>

    init(leave: @escaping @Sendable () -> Void) {
        self.leave = Locked(leave)
    }

    /// Takes the screen away; does nothing the second time.
    func end() {
        leave.withLock { leave in
            defer { leave = nil }
            return leave
        }?()
    }
}
