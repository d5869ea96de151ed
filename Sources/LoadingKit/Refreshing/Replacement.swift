import LoadingKitNetworking

/// A fetch, run off the main actor, that returns how to apply what it fetched.
typealias ReplacementFetch<Loader: Loading> = @Sendable () async throws -> Replacement<Loader>

/// How to apply content fetched to replace the content of a loader.
struct Replacement<Loader: Loading>: Sendable {
    let apply: @MainActor @Sendable (Loader) throws(LoadingError) -> Void
}
