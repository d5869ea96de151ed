import LoadingKitNetworking

/// What a screen knows of the content it shows, beside its state: what the content
/// came with, the stored version it is, and when that version was stored or confirmed.
/// It changes only through ``reduce(_:)``, one ``Event`` at a time: every field is set
/// in this file alone (`.ci/check-sources` keeps it so).
///
/// ```swift
/// var record = ContentRecord()
/// record.reduce(.storedValueShown(entry))  // the stored version, its validators
/// record.reduce(.replaced)  // a value applied in place of it: no stored version
/// ```
struct ContentRecord {
    /// The validators the content came with.
    private(set) var validators: Validators?
    /// What the response of the content said about its freshness.
    private(set) var directives: CacheDirectives?
    /// The version of the stored value the content is, when it is one.
    private(set) var version: UInt64?
    /// When that version was received or last confirmed, on the webservice's clock.
    private(set) var storedAt: ContinuousClock.Instant?
    /// When another screen's answer, which kept the version shown, last confirmed the
    /// content, on the loader's clock: a poll counts its interval from it. The state
    /// does not change — the answer changed nothing shown.
    private(set) var confirmedAt: ContinuousClock.Instant?
    /// When the last failure was recorded, on the webservice's clock: a stored value
    /// received before it does not clear it.
    private(set) var failedAtOnStoreClock: ContinuousClock.Instant?
    /// Whether the content is the stored value of the state's resource — a plain load —
    /// rather than pages or refreshes built on it.
    private(set) var mirrorsStoredValue = false

    /// What can happen to the content a screen shows.
    enum Event {
        /// A load of another resource began: nothing is known of the content now.
        case resourceSwitched
        /// A value was applied in place of the content: no stored version, no
        /// validators yet.
        case replaced
        /// The value applied came with these validators and directives.
        case answered(validators: Validators?, directives: CacheDirectives?)
        /// An answer that kept the content (a `304`, pages unchanged, a list read
        /// back) said this of its freshness.
        case freshness(CacheDirectives?)
        /// The stored `entry` was shown as the content.
        case storedValueShown(StoredEntry)
        /// Another screen's answer confirmed the version shown, stored at `storedAt` on
        /// the webservice's clock, as of `confirmedAt` on the loader's.
        case confirmedElsewhere(
            storedAt: ContinuousClock.Instant,
            confirmedAt: ContinuousClock.Instant
        )
        /// The loader's own answer applied is the stored version `version` (`nil`: not
        /// stored), stored at `storedAt`.
        case storedVersionApplied(UInt64?, storedAt: ContinuousClock.Instant?)
        /// The loader's own answer confirmed the version shown, with `directives`,
        /// stored at `storedAt`.
        case storedVersionConfirmed(
            directives: CacheDirectives?,
            storedAt: ContinuousClock.Instant?
        )
        /// The content is the stored value of the state's resource.
        case mirrorsStore
        /// A load failed, at `at` on the webservice's clock.
        case failed(at: ContinuousClock.Instant)
        /// A local edit made the content the stored version `version`.
        case edited(version: UInt64)
        /// A local edit of the rows made them no stored version of the list: an answer
        /// equal to the stored list still replaces them.
        case versionForgotten
    }

    /// Changes the record as `event` says; the only place any field changes.
    ///
    /// - Parameter event: What happened to the content.
    mutating func reduce(_ event: Event) {
        switch event {
        case .resourceSwitched:
            validators = nil
            directives = nil
            version = nil
            confirmedAt = nil
            mirrorsStoredValue = false
        case .replaced:
            validators = nil
            version = nil
            mirrorsStoredValue = false
        case .answered(let validators, let directives):
            self.validators = validators
            self.directives = directives
        case .freshness(let directives):
            self.directives = directives
        case .storedValueShown(let entry):
            validators = entry.validators
            directives = entry.directives
            version = entry.version
            storedAt = entry.loadedAt
            mirrorsStoredValue = true
        case .confirmedElsewhere(let storedAt, let confirmedAt):
            self.storedAt = storedAt
            self.confirmedAt = confirmedAt
        case .storedVersionApplied(let version, let storedAt):
            self.version = version
            self.storedAt = storedAt
        case .storedVersionConfirmed(let directives, let storedAt):
            self.directives = directives
            self.storedAt = storedAt
        case .mirrorsStore:
            mirrorsStoredValue = true
        case .failed(let instant):
            failedAtOnStoreClock = instant
        case .edited(let version):
            self.version = version
        case .versionForgotten:
            version = nil
        }
    }
}
