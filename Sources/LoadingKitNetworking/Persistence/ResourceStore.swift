import Foundation

/// A place that keeps stored values across launches, so that a screen opened on a
/// cold start shows the last value at once: still fresh when its response's
/// `Cache-Control` or `Expires` says so, else marked stale while it revalidates.
///
/// ```swift
/// let directory = URL.cachesDirectory.appending(path: "LoadingKit")
/// var configuration = Webservice.Configuration()
/// configuration.persistentStore = DiskResourceStore(directory: directory)
/// let webservice = Webservice(configuration: configuration)
/// ```
///
/// A ``Webservice`` reads a record when a load finds nothing in memory, and writes one,
/// in the background, after a `GET` stored a `Codable` value. A loader reads where its
/// load begins — on the main actor, so that a cold start shows the value in its first
/// frame, with no placeholder — when the store ``isQuickToRead``; `Webservice.load`
/// reads off the main actor. Implementations must be safe to call from any thread and
/// must not throw: a record that cannot be read is `nil`, a write that fails is dropped.
public protocol ResourceStore: Sendable {
    /// Whether reading one record is quick enough for the main actor, where a loader's
    /// load begins — a local file, say. When `false`, a loader's record is read off the
    /// main actor, as its request starts, and shown when read. Default: `true`.
    var isQuickToRead: Bool { get }

    /// The record kept under `key`, or `nil`.
    ///
    /// - Parameter key: The resource's stable key.
    /// - Returns: The record, or `nil` when there is none or it cannot be read.
    func record(forKey key: String) -> PersistedRecord?

    /// Keeps `record` under `key`, replacing what was there.
    ///
    /// - Parameters:
    ///   - record: What to keep.
    ///   - key: The resource's stable key.
    func store(_ record: PersistedRecord, forKey key: String)

    /// Forgets the record under `key`.
    ///
    /// - Parameter key: The resource's stable key.
    func removeRecord(forKey key: String)

    /// Forgets every record.
    func removeAll()
}

extension ResourceStore {
    /// `true`: a record is read where a loader's load begins.
    public var isQuickToRead: Bool { true }
}

/// What a ``ResourceStore`` keeps of one value: the value encoded as JSON, its
/// validators, when it was received and how long it stays fresh.
///
/// ```swift
/// let record = PersistedRecord(body: try JSONEncoder().encode(posts), entityTag: "\"v1\"")
/// ```
public struct PersistedRecord: Sendable, Equatable {
    /// The value, encoded as JSON.
    public var body: Data
    /// The `ETag` the value came with.
    public var entityTag: String?
    /// The `Last-Modified` date the value came with.
    public var lastModified: String?
    /// When the value was received.
    public var storedAt: Date
    /// How long after ``storedAt`` the value stays fresh, as its response said;
    /// `nil` when it said nothing or asked for revalidation: a value read back is then
    /// revalidated before it is trusted.
    public var freshnessLifetime: Duration?

    /// Creates a record.
    ///
    /// - Parameters:
    ///   - body: The value, encoded as JSON.
    ///   - entityTag: The `ETag` the value came with.
    ///   - lastModified: The `Last-Modified` date the value came with.
    ///   - storedAt: When the value was received.
    ///   - freshnessLifetime: How long after `storedAt` the value stays fresh; `nil`
    ///     when its response did not say.
    public init(
        body: Data,
        entityTag: String? = nil,
        lastModified: String? = nil,
        storedAt: Date = Date(),
        freshnessLifetime: Duration? = nil
    ) {
        self.body = body
        self.entityTag = entityTag
        self.lastModified = lastModified
        self.storedAt = storedAt
        self.freshnessLifetime = freshnessLifetime
    }
}
