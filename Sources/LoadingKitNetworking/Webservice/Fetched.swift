/// A value a ``Webservice`` fetched, with how: its validators, and whether the server
/// said it had not changed (a `304` answered from the stored value).
///
/// ```swift
/// let fetched = try await webservice.fetch(Episode.resource(id: 1))
/// if fetched.isNotModified { /* nothing was downloaded or decoded */ }
/// ```
public struct Fetched<A> {
    /// The value: parsed from the body, or the stored value when not modified.
    public let value: A
    /// The `ETag` and `Last-Modified` the value came with.
    public let validators: Validators?
    /// Whether the server answered `304 Not Modified` to the stored validators.
    public let isNotModified: Bool
    /// What the response said about storing the value and how long it stays fresh.
    public let cacheDirectives: CacheDirectives
    /// The version of the stored entry the value is, when the webservice stored it.
    package let storeVersion: UInt64?
    /// What the response said besides the value — its total count and links — when
    /// the webservice stored it.
    package let response: ResponseSummary?
    /// When the stored value was received or last confirmed, on the webservice's clock.
    package let storedAt: ContinuousClock.Instant?

    /// Creates a fetched value.
    ///
    /// - Parameters:
    ///   - value: The value.
    ///   - validators: The `ETag` and `Last-Modified` it came with.
    ///   - isNotModified: Whether it is the stored value, confirmed by a `304`.
    ///   - cacheDirectives: What the response said about storing and freshness.
    public init(
        value: A,
        validators: Validators?,
        isNotModified: Bool,
        cacheDirectives: CacheDirectives = CacheDirectives()
    ) {
        self.value = value
        self.validators = validators
        self.isNotModified = isNotModified
        self.cacheDirectives = cacheDirectives
        self.storeVersion = nil
        self.response = nil
        self.storedAt = nil
    }

    /// Creates a fetched value that is the stored entry `entry`.
    package init(entry: StoredEntry, value: A, isNotModified: Bool) {
        self.value = value
        self.validators = entry.validators
        self.isNotModified = isNotModified
        self.cacheDirectives = entry.directives
        self.storeVersion = entry.version
        self.response = entry.response
        self.storedAt = entry.loadedAt
    }
}

// MARK: - where A: Sendable

extension Fetched: Sendable where A: Sendable {}
