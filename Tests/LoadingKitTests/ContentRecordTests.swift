import Foundation
import Testing

@testable import LoadingKit

/// The screen's content record, one table row per event: the record before, the
/// event, the record after.
@Suite("A screen's content record", .timeLimit(.minutes(1)))
struct ContentRecordTests {
    static let start = ContinuousClock.now
    static let later = start.advanced(by: .seconds(30))
    static let tag = Validators(entityTag: "\"v1\"", lastModified: nil)
    static let fresh = CacheDirectives(freshnessLifetime: .seconds(60))

    /// A record of a stored version 3, with validators and directives, mirroring the
    /// store, confirmed elsewhere and failed once.
    static var shown: ContentRecord {
        var record = ContentRecord()
        record.reduce(.storedValueShown(entry(version: 3)))
        record.reduce(.confirmedElsewhere(storedAt: start, confirmedAt: start))
        record.reduce(.failed(at: start))
        return record
    }

    static func entry(version: UInt64) -> StoredEntry {
        StoredEntry(
            value: "v",
            validators: tag,
            cacheFields: [:],
            directives: fresh,
            loadedAt: start,
            response: ResponseSummary(statusCode: 200),
            version: version,
            sequence: 1,
            cost: 1
        )
    }

    /// What a row checks of a record.
    struct Seen: Equatable {
        var validators = true
        var directives: CacheDirectives? = ContentRecordTests.fresh
        var version: UInt64? = 3
        var storedLater = false
        var confirmed = true
        var failed = true
        var mirrors = true

        init(_ record: ContentRecord) {
            validators = record.validators != nil
            directives = record.directives
            version = record.version
            storedLater = record.storedAt == ContentRecordTests.later
            confirmed = record.confirmedAt != nil
            failed = record.failedAtOnStoreClock != nil
            mirrors = record.mirrorsStoredValue
        }

        init(change: (inout Seen) -> Void = { _ in }) {
            change(&self)
        }
    }

    /// One row: a name, the event, the record after, from ``shown``.
    struct Row: CustomTestStringConvertible, Sendable {
        let name: String
        let event: @Sendable () -> ContentRecord.Event
        let after: @Sendable () -> Seen

        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(name: "another resource: nothing known but the failure") {
            .resourceSwitched
        } after: {
            Seen {
                $0.validators = false
                $0.directives = nil
                $0.version = nil
                $0.confirmed = false
                $0.mirrors = false
            }
        },
        Row(name: "a value applied in its place: no stored version, no validators") {
            .replaced
        } after: {
            Seen {
                $0.validators = false
                $0.version = nil
                $0.mirrors = false
            }
        },
        Row(name: "an answer applied: its validators and directives") {
            .answered(validators: nil, directives: CacheDirectives(requiresRevalidation: true))
        } after: {
            Seen {
                $0.validators = false
                $0.directives = CacheDirectives(requiresRevalidation: true)
            }
        },
        Row(name: "an answer that kept the content: its freshness only") {
            .freshness(nil)
        } after: {
            Seen { $0.directives = nil }
        },
        Row(name: "a stored value shown: its version, validators and time") {
            .storedValueShown(ContentRecordTests.entry(version: 7))
        } after: {
            Seen { $0.version = 7 }
        },
        Row(name: "confirmed by another screen's answer: when, on both clocks") {
            .confirmedElsewhere(
                storedAt: ContentRecordTests.later,
                confirmedAt: ContentRecordTests.later
            )
        } after: {
            Seen { $0.storedLater = true }
        },
        Row(name: "the loader's own answer applied: the version it is") {
            .storedVersionApplied(nil, storedAt: ContentRecordTests.later)
        } after: {
            Seen {
                $0.version = nil
                $0.storedLater = true
            }
        },
        Row(name: "the loader's own answer confirmed the version shown") {
            .storedVersionConfirmed(directives: nil, storedAt: ContentRecordTests.later)
        } after: {
            Seen {
                $0.directives = nil
                $0.storedLater = true
            }
        },
        Row(name: "the content mirrors the store") {
            .mirrorsStore
        } after: {
            Seen()
        },
        Row(name: "a failure recorded") {
            .failed(at: ContentRecordTests.later)
        } after: {
            Seen()
        },
        Row(name: "a local edit made it another stored version") {
            .edited(version: 9)
        } after: {
            Seen { $0.version = 9 }
        },
        Row(name: "a local edit of the rows: no stored version any more") {
            .versionForgotten
        } after: {
            Seen { $0.version = nil }
        },
    ]

    @Test("each event changes the record as its row says", arguments: rows)
    func reduces(row: Row) {
        var record = Self.shown
        record.reduce(row.event())
        #expect(Seen(record) == row.after())
    }

    @Test("a failure's time and a mirror start from nothing")
    func fromNothing() {
        var record = ContentRecord()
        #expect(record.failedAtOnStoreClock == nil && !record.mirrorsStoredValue)
        record.reduce(.failed(at: Self.later))
        record.reduce(.mirrorsStore)
        #expect(record.failedAtOnStoreClock == Self.later && record.mirrorsStoredValue)
    }
}
