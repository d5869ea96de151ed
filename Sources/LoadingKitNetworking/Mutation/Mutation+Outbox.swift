import Foundation

extension Mutation {
    /// How a mutation kept until sent is rebuilt after a relaunch: the kind an
    /// ``Outbox`` knows and the input it is rebuilt from, as JSON.
    struct Keeping: Sendable {
        let kind: String?
        let input: Data?
        /// Whether the input failed to encode: the outbox refuses the mutation.
        let inputFailedToEncode: Bool
    }

    /// Whether the mutation is written to the webservice's ``Outbox`` and kept until
    /// the server confirms or rejects it.
    public var isKeptUntilSent: Bool { keeping != nil }

    /// This mutation, written to the webservice's ``Outbox`` before it is sent and
    /// kept there until the server confirms or rejects it: when the server cannot be
    /// reached it is sent again later, in order within its scope, with the same
    /// `Idempotency-Key`, and its optimistic changes stay shown meanwhile — also
    /// across a relaunch, when the mutation is kept with a kind (see
    /// ``keptUntilSent(as:input:)``).
    ///
    /// ```swift
    /// let like = Mutation(Post.like(id: 3))
    ///     .optimistically(updating: Post.resource(id: 3)) { $0.likes += 1 }
    ///     .keptUntilSent()
    /// ```
    ///
    /// After a relaunch, a write kept without a kind is sent again as it was
    /// recorded, with no optimistic change shown and no answer stored.
    ///
    /// - Returns: The mutation, kept until sent.
    public func keptUntilSent() -> Mutation {
        var copy = self
        copy.keeping = Keeping(kind: nil, input: nil, inputFailedToEncode: false)
        return copy
    }

    /// This mutation, kept until sent as ``keptUntilSent()`` says, and rebuilt after a
    /// relaunch by the function the outbox registered for `kind`, from `input`: its
    /// optimistic changes show over the stored values again, and its answer is stored
    /// where it says, until the server confirms or rejects it.
    ///
    /// ```swift
    /// struct Rename: Codable, Sendable { let id: Int; let title: String }
    ///
    /// func renaming(_ rename: Rename) -> Mutation<Post> {
    ///     Mutation(Post.rename(id: rename.id, to: rename.title))
    ///         .optimistically(updating: Post.resource(id: rename.id)) { $0.title = rename.title }
    ///         .keptUntilSent(as: "rename-post", input: rename)
    /// }
    /// outbox.register("rename-post", rebuild: renaming)  // before the webservice starts
    /// ```
    ///
    /// - Parameters:
    ///   - kind: The name the outbox rebuilds the mutation by.
    ///   - input: What the mutation is built from; written to disk as JSON, so keep
    ///     credentials out of it.
    /// - Returns: The mutation, kept until sent.
    public func keptUntilSent<Input: Encodable & Sendable>(as kind: String, input: Input)
        -> Mutation
    {
        var copy = self
        let encoded = try? JSONEncoder().encode(input)
        copy.keeping = Keeping(kind: kind, input: encoded, inputFailedToEncode: encoded == nil)
        return copy
    }
}
