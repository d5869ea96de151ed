/// How much a ``Webservice`` keeps in memory of the values it loaded: a number of
/// entries and an estimated cost (the bytes of their bodies). Past either, the least
/// recently used entries go first — never one a live loader shows.
///
/// ```swift
/// var configuration = Webservice.Configuration()
/// configuration.storage = StorageLimits(maximumEntries: 1_000, maximumCost: 64 << 20)
/// configuration.storage = .disabled   // keep nothing: no sharing, no revalidation
/// ```
public struct StorageLimits: Sendable, Equatable {
    /// The most entries kept. Default: 500.
    public var maximumEntries: Int
    /// The most bytes of bodies kept, estimated. Default: 32 MiB.
    public var maximumCost: Int

    /// Creates limits.
    ///
    /// - Parameters:
    ///   - maximumEntries: The most entries kept.
    ///   - maximumCost: The most bytes of bodies kept, estimated.
    public init(maximumEntries: Int = 500, maximumCost: Int = 32 << 20) {
        self.maximumEntries = maximumEntries
        self.maximumCost = maximumCost
    }

    /// Keeps nothing: every load goes to the server, no screen shares another's value
    /// and no request is conditional.
    public static let disabled = StorageLimits(maximumEntries: 0, maximumCost: 0)

    /// Whether anything is kept.
    public var isEnabled: Bool { maximumEntries > 0 && maximumCost > 0 }
}
