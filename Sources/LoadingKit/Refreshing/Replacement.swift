import LoadingKitNetworking

/// A fetch, run off the main actor, that returns how to apply what it fetched.
typealias ReplacementFetch<Loader: Loading> = @Sendable () async throws -> Replacement<Loader>

/// How to apply content fetched to replace the content of a loader.
struct Replacement<Loader: Loading>: Sendable {
    let apply: @MainActor @Sendable (Loader) throws(LoadingError) -> Void
}

/// A refresh's first fetch, made as the fetch of another resource that sends the same
/// request — a list's first page: the items it gives the refresh, what the response
/// said, and how the same answer replaces the content should the items not merge.
typealias RefreshHeadFetch<Loader: Loading> =
    @Sendable () async throws -> (
        items: Loader.ResourceType, response: ResponseSummary?, replacement: Replacement<Loader>
    )
