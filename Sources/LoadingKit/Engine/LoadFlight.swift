/// One operation of a loader in flight: its fetch, running off the main actor, and
/// how to apply what it fetched.
///
/// Whoever waits for the flight applies its outcome when it resumes — the caller of
/// an async load, a joiner, or the task of a load started without waiting — and the
/// first of them to resume wins. So an awaited load costs one hop to the main actor.
struct LoadFlight: Sendable {
    /// The number of the operation; only the current one may be applied.
    let generation: UInt64
    /// The resource whose value the operation makes the content, when it replaces
    /// the content; `nil` for a refresh or a next page. Only a load of the same
    /// resource joins it.
    let identity: ResourceIdentity?
    /// Cancels the fetch.
    let cancel: @Sendable () -> Void
    /// Waits for the fetch and applies its outcome if it is still current. With
    /// `propagatingCancellation`, cancelling the waiting task cancels the fetch.
    let finish: @MainActor @Sendable (_ propagatingCancellation: Bool) async -> Void
}
