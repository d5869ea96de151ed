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
/// The server's answer can be the new value of a resource, shown on every screen at
/// once with no second request:
///
/// ```swift
/// let renamed = try await webservice.send(
///     Mutation(Post.rename(id: 3, to: "New title")).storingAnswer(as: Post.resource(id: 3))
/// )
/// ```
///
/// A mutation is sent once: never shared with an identical one in flight nor retried,
/// unless ``coalescing()`` or ``retrying(_:)`` says so. Mutations of one
/// ``scoped(_:)`` scope are sent one after another, in the order sent.
public struct Mutation<A: Sendable>: Sendable {
    /// A change shown at once on one stored value.
    struct Change: Sendable {
        let identity: ResourceIdentity
        let apply: @Sendable (any Sendable) -> any Sendable
    }

    /// What the server's answer does to one stored value once the mutation succeeds.
    struct Answer: Sendable {
        let identity: ResourceIdentity
        /// The value to store, from the value stored (`nil` when there is none) and the
        /// answer; `nil` leaves the entry as it is.
        let apply: @Sendable ((any Sendable)?, A) -> (any Sendable)?
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
    /// The scope whose mutations run one after another; `nil` for none. Default: `nil`.
    public private(set) var scope: String?
    private(set) var changes: [Change] = []
    private(set) var answers: [Answer] = []
    /// The identities of the stored values the mutation changes at once; kept as the
    /// changes are added, since a send reads them several times.
    package private(set) var changedIdentities: [ResourceIdentity] = []
    /// The identities of the stored values the mutation's answer changes.
    package private(set) var answeredIdentities: [ResourceIdentity] = []
    /// How the mutation is kept in the outbox until the server confirms or rejects it;
    /// `nil` when it is sent once. Set by ``keptUntilSent()``.
    var keeping: Keeping?

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
        let identity = target.identity
        copy.changedIdentities.append(identity)
        copy.changes.append(
            Change(identity: identity) { value in
                guard var typed = value as? B else { return value }
                change(&typed)
                return typed
            }
        )
        return copy
    }

    /// This mutation, storing the server's answer as the value of `target` once it
    /// succeeds — a `PATCH /posts/3` answering the post — so that every screen showing
    /// `target` shows it at once, with no second request. An optimistic change of
    /// `target` gives way to the answer in the same step.
    ///
    /// - Parameter target: The resource whose value the answer is.
    /// - Returns: The mutation storing its answer.
    public func storingAnswer(as target: Resource<A>) -> Mutation {
        var copy = self
        let identity = target.identity
        copy.answeredIdentities.append(identity)
        copy.answers.append(Answer(identity: identity) { _, answer in answer })
        return copy
    }

    /// This mutation, changing the stored value of `target` with the server's answer
    /// once it succeeds — a `POST /posts` answering the new post, which `merge` puts in
    /// the list — so that every screen showing `target` shows it at once, with no
    /// second request. Nothing happens when no value of `target` is stored. An
    /// optimistic change of `target` gives way to the merged answer in the same step.
    ///
    /// ```swift
    /// let create = Mutation(Post.create(draft))
    ///     .mergingAnswer(into: Post.all) { posts, created in posts.insert(created, at: 0) }
    /// ```
    ///
    /// - Parameters:
    ///   - target: The resource whose stored value changes.
    ///   - merge: Puts the answer in the stored value.
    /// - Returns: The mutation merging its answer.
    public func mergingAnswer<B: Sendable>(
        into target: Resource<B>,
        _ merge: @escaping @Sendable (inout B, A) -> Void
    ) -> Mutation {
        var copy = self
        let identity = target.identity
        copy.answeredIdentities.append(identity)
        copy.answers.append(
            Answer(identity: identity) { stored, answer in
                guard var typed = stored as? B else { return nil }
                merge(&typed, answer)
                return typed
            }
        )
        return copy
    }

    /// This mutation, sent only once every mutation sent before it with the same
    /// `scope` has ended: two edits of one item reach the server in the order they
    /// were made. Mutations of different scopes, or of none, run side by side.
    ///
    /// ```swift
    /// screen.startSending(Mutation(Post.rename(id: 3, to: "Draft")).scoped("post-3"))
    /// screen.startSending(Mutation(Post.publish(id: 3)).scoped("post-3"))  // after the rename
    /// ```
    ///
    /// - Parameter scope: Names the mutations that run one after another.
    /// - Returns: The scoped mutation.
    public func scoped(_ scope: String) -> Mutation {
        var copy = self
        copy.scope = scope
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

    /// The identities of the stored values the mutation changes at once or with its
    /// answer.
    package var touchedIdentities: [ResourceIdentity] {
        answeredIdentities.isEmpty ? changedIdentities : changedIdentities + answeredIdentities
    }

    /// Whether the mutation changes the value of `identity` — at once, with its
    /// answer, or on the server, as its invalidations say: a load of it waits until
    /// the mutation has ended.
    func changesValue(of identity: ResourceIdentity) -> Bool {
        touchedIdentities.contains(identity) || invalidations.contains { $0.covers(identity) }
    }
}
