import LoadingKitNetworking

/// What the kit's default implementations do for one kind of loader — how a load, a
/// reload and a reset work on it — chosen by the protocols the loader conforms to:
/// one value for a ``Loading`` type, a window of pages for a ``Paginating`` one.
///
/// ```swift
/// @MainActor final class IssuesScreen: Paginating { … }
/// IssuesScreen.kind  // pages: reload() reloads the pages shown
/// ```
///
/// ``Loading/kind`` chooses it when it runs, from the loader's type as the caller
/// names it — in generic code too — and a conformer has nothing to implement.
struct LoaderKind<Loader: Loading>: Sendable {
    /// Starts a load of a resource under a policy.
    let load: @MainActor @Sendable (Loader, Resource<Loader.ResourceType>, LoadPolicy) -> LoadStart
    /// Starts a reload of what the loader shows, or of its first content; `nil` when
    /// there is nothing to load.
    let reload: @MainActor @Sendable (Loader, LoadPolicy) -> LoadStart?
    /// Forgets what the refinement keeps beside the state, such as the pages.
    let forget: @MainActor @Sendable (Loader) -> Void
    /// Starts the first load of a refresh with nothing shown; `nil` to load the refresh
    /// resource.
    let firstLoad: (@MainActor @Sendable (Loader) -> LoadStart)?
    /// What replaces the content when a refresh cannot merge, as a fetch that returns
    /// how to apply it; `nil` (or a `nil` fetch) to show the refresh's replacement.
    let replacement: (@MainActor @Sendable (Loader) -> ReplacementFetch<Loader>?)?
    /// The refresh's first fetch when the refresh resource (given) sends the request
    /// of the loader's own first content — a list's first page —, so that one answer
    /// serves the refresh and, should it not merge, its replacement; `nil` to fetch
    /// the refresh resource.
    var refreshHead:
        @MainActor @Sendable (Loader, Resource<Loader.ResourceType>) -> RefreshHeadFetch<Loader>? =
            { _, _ in nil }
    /// How a refresh runs when the content does not start at the head of the list — a
    /// window that dropped its first pages: it reloads what is held, in place; `nil`
    /// when new items merge before the content.
    let refreshAwayFromHead: @MainActor @Sendable (Loader) -> LoadStart?
    /// Follows a local edit of the content with what the refinement keeps beside it.
    let edited: @MainActor @Sendable (Loader, AppliedEdit<Loader.ResourceType>) -> Void
    /// Keeps what a refresh's response said of the whole list — its total count and
    /// links — beside the content.
    var answered: @MainActor @Sendable (Loader, ResponseSummary) -> Void = { _, _ in }
    /// Keeps what the loader shows beside the store — a list's window of pages — for
    /// the next screen that opens it; returns whether it did.
    var keepSnapshot: @MainActor @Sendable (Loader) -> Bool = { _ in false }
}

extension Loading {
    /// What the default implementations do for this kind of loader: a window of pages
    /// for a ``Paginating`` one, one value otherwise.
    static var kind: LoaderKind<Self> {
        guard let paginating = Self.self as? any Paginating.Type else { return .value }
        return paginating.pagesKind(as: Self.self) ?? .value
    }
}

extension Paginating {
    /// The kind of a list of pages, for `Loader`, which is this type.
    ///
    /// - Parameter loader: This type, as the caller names it.
    /// - Returns: The list's kind; `nil` when `loader` is another type.
    fileprivate static func pagesKind<Loader: Loading>(as loader: Loader.Type) -> LoaderKind<
        Loader
    >? {
        LoaderKind<Self>.pages as? LoaderKind<Loader>
    }
}

extension LoaderKind {
    /// One value: a load replaces it, a reload loads the loader's resource again.
    static var value: LoaderKind {
        LoaderKind(
            load: { loader, resource, policy in
                loader.loading.load(resource, policy: policy, for: loader)
            },
            reload: { loader, policy in
                guard let resource = loader.resource ?? loader.loading.lastResource else {
                    return nil
                }
                return loader.loading.load(resource, policy: policy, for: loader)
            },
            forget: { _ in },
            firstLoad: nil,
            replacement: nil,
            refreshAwayFromHead: { _ in nil },
            edited: { _, _ in }
        )
    }
}
