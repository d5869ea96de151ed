import LoadingKitNetworking

extension Webservice {
    /// Revalidates every live screen of this webservice whose content is stale — by its
    /// ``Loading/maxAge``, or what its response said — in the background, keeping
    /// what it shows: one request per resource, whatever the number of screens showing
    /// it, and a paged list's pages once each. Call it when the app becomes active
    /// again and when the network comes back.
    ///
    /// ```swift
    /// .onChange(of: scenePhase) { _, phase in
    ///     if phase == .active { webservice.revalidateStaleScreens() }
    /// }
    /// ```
    @MainActor
    public func revalidateStaleScreens() {
        SharedValues.of(self).revalidateStale()
    }
}
