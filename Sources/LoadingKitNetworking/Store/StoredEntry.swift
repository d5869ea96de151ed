import Foundation

/// One resource's entry in a webservice's store: the value the server last sent, the
/// optimistic changes of mutations in flight layered on it, and what the response
/// said of it.
package struct StoredEntry: Sendable {
    /// A change a mutation in flight made to the value, until it ends.
    package struct Edit: Sendable {
        /// The mutation's number, which removes the change when the mutation ends.
        package let id: UInt64
        /// Returns the value changed; the value is of the entry's type.
        package let apply: @Sendable (any Sendable) -> any Sendable

        /// Creates a change numbered `id`.
        package init(id: UInt64, apply: @escaping @Sendable (any Sendable) -> any Sendable) {
            self.id = id
            self.apply = apply
        }
    }

    /// The value the server last sent, or a local edit made since.
    package private(set) var base: any Sendable
    /// The optimistic changes of the mutations in flight, oldest first.
    package private(set) var edits: [Edit] = []
    /// `base` with every change in `edits` applied: the value screens show.
    package private(set) var value: any Sendable
    /// The `ETag` and `Last-Modified` the base came with.
    package var validators: Validators?
    /// The caching header fields of the response, which a `304` updates.
    package var cacheFields: [String: String]
    /// What the response said of keeping and reusing the value.
    package var directives: CacheDirectives
    /// When the base was received or last confirmed, by the webservice's clock.
    package var loadedAt: ContinuousClock.Instant
    /// What the response said beside the value.
    package var response: ResponseSummary
    /// Whether the entry was invalidated since it was loaded.
    package var isStale = false
    /// Changes each time ``value`` does, so that a screen applies each value once.
    package var version: UInt64
    /// The number of the request the base answered: an older request's answer never
    /// replaces it.
    package var sequence: UInt64
    /// An estimate of the memory the value takes: the size of its body.
    package var cost: Int

    package init(
        value: any Sendable,
        validators: Validators?,
        cacheFields: [String: String],
        directives: CacheDirectives,
        loadedAt: ContinuousClock.Instant,
        response: ResponseSummary,
        version: UInt64,
        sequence: UInt64,
        cost: Int
    ) {
        self.base = value
        self.value = value
        self.validators = validators
        self.cacheFields = cacheFields
        self.directives = directives
        self.loadedAt = loadedAt
        self.response = response
        self.version = version
        self.sequence = sequence
        self.cost = cost
    }

    /// Replaces the base — with a value the server sent, or a local edit — keeping the
    /// pending changes on top of it.
    package mutating func replaceBase(with value: any Sendable) {
        base = value
        recompute()
    }

    /// Layers `edit` on the value.
    package mutating func add(_ edit: Edit) {
        edits.append(edit)
        value = edit.apply(value)
    }

    /// Takes the change `id` off the value — also when other values came in since —
    /// and, when `keep` is `true`, folds it into the base instead: the server took it.
    /// Returns whether the value shown may have changed: not when the change was not
    /// pending, nor when the oldest change is kept.
    package mutating func removeEdit(_ id: UInt64, keepingIt keep: Bool) -> Bool {
        guard let index = edits.firstIndex(where: { $0.id == id }) else { return false }
        let edit = edits.remove(at: index)
        if keep {
            base = edit.apply(base)
            if index == 0 {
                return false
            }
        }
        recompute()
        return true
    }

    private mutating func recompute() {
        value = edits.reduce(base) { value, edit in edit.apply(value) }
    }
}
