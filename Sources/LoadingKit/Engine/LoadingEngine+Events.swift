import LoadingKitNetworking

extension LoadingEngine {
    /// Hands `kind`, about a load of `identity` (by default the resource the state
    /// shows), to the monitor of the loader's webservice; builds nothing when there
    /// is none.
    func report(
        _ kind: @autoclosure () -> LoadingEvent.Kind,
        about identity: ResourceIdentity? = nil
    ) {
        let webservice = loader.webservice
        guard webservice.isMonitored else { return }
        webservice.report(kind(), about: identity ?? core.stateIdentity, loader: Loader.self)
    }
}
