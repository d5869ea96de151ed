/// What a ``Webservice`` keeps of a resource it loaded: the value screens show, and
/// what the response said of it.
///
/// ```swift
/// if let stored = webservice.storedValue(for: Post.resource(id: 1)), !stored.isStale {
///     show(stored.value)
/// }
/// ```
public struct StoredValue<A: Sendable>: Sendable {
    /// The value: the last one the server sent, with the optimistic changes of the
    /// mutations in flight and the local edits made since.
    public let value: A
    /// The `ETag` and `Last-Modified` it came with.
    public let validators: Validators?
    /// What the response said of keeping and reusing it.
    public let cacheDirectives: CacheDirectives
    /// What the response said beside it: status, links, total count.
    public let response: ResponseSummary
    /// When it was received or last confirmed, by the webservice's clock.
    public let loadedAt: ContinuousClock.Instant
    /// Whether it was invalidated since.
    public let isStale: Bool
    /// Whether a mutation in flight changed it optimistically.
    public let hasPendingChanges: Bool
    /// Whether it shows the change of a mutation that ended without saying whether the
    /// server took it — timed out, or its connection lost, after it was sent — until
    /// the server's value is loaded again and keeps the change or takes it back.
    public let hasUnconfirmedChanges: Bool

    init?(_ entry: StoredEntry) {
        guard let value = entry.value as? A else { return nil }
        self.value = value
        validators = entry.validators
        cacheDirectives = entry.directives
        response = entry.response
        loadedAt = entry.loadedAt
        isStale = entry.isStale
        hasPendingChanges = entry.edits.contains { !$0.isUnconfirmed }
        hasUnconfirmedChanges = entry.hasUnconfirmedChanges
    }
}
