/// A request that changes something on the server — a `POST`, `PUT`, `PATCH` or
/// `DELETE` resource — with what it does to the stored values: the resources it makes
/// stale when it succeeds, and the changes it shows at once, before the server
/// answers, which are taken back exactly if it fails.
///
/// ```swift
/// let rename = Mutation(Post.rename(id: 1, to: "New title"))
///     .optimistically(updating: Post.resource(id: 1)) { $0.title = "New title" }
///     .optimistically(updating: Post.all) { posts in
///         if let index = posts.firstIndex(where: { $0.id == 1 }) { posts[index].title = "New title" }
///     }
///     .invalidating(.prefix(Post.collectionURL))
/// let saved = try await webservice.send(rename)
/// ```
///
/// A mutation is sent once: never shared with an identical one in flight nor retried,
/// unless ``coalescing()`` or ``retrying(_:)`` says so.
public struct Mutation<A: Sendable>: Sendable {
    /// A change shown at once on one stored value.
    struct Change: Sendable {
        let identity: ResourceIdentity
        let apply: @Sendable (any Sendable) -> any Sendable
    }

    /// The request and the parse of its answer.
    public let resource: Resource<A>
    /// What goes stale once the mutation succeeds, besides the values it changes.
    public private(set) var invalidations: [Invalidation] = []
    /// When a failed mutation is sent again. Default: ``RetryPolicy/none``.
    public private(set) var retry: RetryPolicy = .none
    /// Whether an identical mutation in flight is shared rather than sent again.
    /// Default: `false`.
    public private(set) var coalesces = false
    private(set) var changes: [Change] = []

    /// A mutation sending `resource`.
    ///
    /// - Parameter resource: The request and the parse of its answer.
    public init(_ resource: Resource<A>) {
        self.resource = resource
    }

    /// This mutation, changing the stored value of `target` with `change` at once —
    /// every screen showing it shows the change — until it ends: kept once it
    /// succeeds (and `target` goes stale, for the server's own value), taken back if it
    /// fails or is cancelled, leaving every value stored since in place.
    ///
    /// - Parameters:
    ///   - target: The resource whose stored value changes.
    ///   - change: The change.
    /// - Returns: The mutation with the change.
    public func optimistically<B: Sendable>(
        updating target: Resource<B>,
        _ change: @escaping @Sendable (inout B) -> Void
    ) -> Mutation {
        var copy = self
        copy.changes.append(
            Change(identity: target.identity) { value in
                guard var typed = value as? B else { return value }
                change(&typed)
                return typed
            }
        )
        return copy
    }

    /// This mutation, making the resources `invalidation` covers stale once it
    /// succeeds.
    ///
    /// - Parameter invalidation: Which resources.
    /// - Returns: The mutation with the invalidation.
    public func invalidating(_ invalidation: Invalidation) -> Mutation {
        var copy = self
        copy.invalidations.append(invalidation)
        return copy
    }

    /// This mutation, sent again after a failure as `policy` allows — also for methods
    /// that are not idempotent when the policy says so.
    ///
    /// - Parameter policy: When to send it again.
    /// - Returns: The mutation with the policy.
    public func retrying(_ policy: RetryPolicy) -> Mutation {
        var copy = self
        copy.retry = policy
        return copy
    }

    /// This mutation, sharing the request of an identical one in flight.
    ///
    /// - Returns: The coalescing mutation.
    public func coalescing() -> Mutation {
        var copy = self
        copy.coalesces = true
        return copy
    }

    /// The identities of the stored values the mutation changes at once.
    package var changedIdentities: [ResourceIdentity] { changes.map(\.identity) }
}
