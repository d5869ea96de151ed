import LoadingKitNetworking

/// How a screen follows a live resource: joined to the resource's hub while its view is
/// shown, away while it is gone, and for good once released.
extension LoadingCore {
    /// Starts following `live` with `handler`, replacing what the screen followed; the
    /// live resource resumes after `resumingAfter()`'s event ID when it follows again
    /// after its view was gone.
    func startFollowing<Event: Sendable>(
        _ live: LiveResource<Event>,
        for loader: some Loading<Value>,
        handler: @escaping LiveHub<Event>.Handler,
        resumingAfter lastEventID: @escaping @MainActor () -> String = { "" }
    ) {
        _ = stopFollowing()
        let webservice = loader.webservice
        let follow = LiveFollow { resumed in
            let resource = resumed ? live.resuming(after: lastEventID()) : live
            return LiveHub.join(resource, of: webservice, handler: handler)
        }
        liveFollow = follow
        follow.join(resumed: false, into: self)
    }

    /// Stops following; returns whether the screen followed a live resource.
    func stopFollowing() -> Bool {
        guard let follow = liveFollow else { return false }
        liveFollow = nil
        follow.leave(from: self)
        return true
    }

    /// The screen's view is gone: it leaves the live resource's followers, and joins
    /// them again when its view is back.
    func pauseFollowing() {
        liveFollow?.leave(from: self)
    }

    /// The screen's view is back: it follows the live resource again, after the last
    /// event it showed.
    func resumeFollowing() {
        liveFollow?.join(resumed: true, into: self)
    }

    /// Keeps the screen's place among the followers where the core's release finds it.
    fileprivate func keep(_ membership: LiveMembership?) {
        guarded.withLock { $0.liveMembership = membership }
    }
}

/// How a screen joins the followers of the live resource it follows.
@MainActor
final class LiveFollow {
    private let joining: @MainActor (_ resumed: Bool) -> LiveMembership
    private var membership: LiveMembership?

    init(joining: @escaping @MainActor (_ resumed: Bool) -> LiveMembership) {
        self.joining = joining
    }

    /// Joins, unless joined already.
    func join<Value>(resumed: Bool, into core: LoadingCore<Value>) {
        guard membership == nil else { return }
        let joined = joining(resumed)
        membership = joined
        core.keep(joined)
    }

    /// Leaves, if joined.
    func leave<Value>(from core: LoadingCore<Value>) {
        membership?.end()
        membership = nil
        core.keep(nil)
    }
}
