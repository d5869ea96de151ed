import Foundation
import Testing

@testable import LoadingKitNetworking

/// The entry's reducer, one table row per event: the entry before, the event, the
/// entry after, and whether the value shown changed.
@Suite("A stored entry's events", .timeLimit(.minutes(1)))
struct StoredEntryTests {
    static let start = ContinuousClock.now
    static let later = start.advanced(by: .seconds(30))
    static let tag = Validators(entityTag: "\"v1\"", lastModified: nil)

    /// An entry of `value`, version 1, answering request 1, with validators, and with
    /// one row stored under its own resource when `rows`.
    static func entry(
        _ value: String,
        stale: Bool = false,
        sequence: UInt64 = 1,
        rows: Bool = false
    ) -> StoredEntry {
        StoredEntry(
            value: value,
            validators: tag,
            cacheFields: ["ETag": "\"v1\""],
            directives: CacheDirectives(),
            loadedAt: start,
            response: ResponseSummary(statusCode: 200),
            isStale: stale,
            version: 1,
            sequence: sequence,
            cost: 10,
            elements: rows ? [StoredElement(identity: row.identity, value: value)] : nil
        )
    }

    /// The resource of an entry's row.
    static let row = Resource<String>(url: URL(string: "https://api.example.com/rows/1")!)

    /// An entry of "v1" with one row, and the edit "+a" (numbered 5) pending.
    static var editedWithRows: StoredEntry {
        var entry = entry("v1", rows: true)
        entry.reduce(.changeLaid(appending("+a", id: 5)), numbering: 1)
        return entry
    }

    /// An edit numbered `id` that appends `suffix`.
    static func appending(_ suffix: String, id: UInt64) -> StoredEntry.Edit {
        StoredEntry.Edit(id: id) { ($0 as! String) + suffix }
    }

    /// An entry of "v1" with the edit "+a" (numbered 5) pending.
    static var edited: StoredEntry {
        var entry = entry("v1")
        entry.reduce(.changeLaid(appending("+a", id: 5)), numbering: 1)
        return entry
    }

    /// An entry of "v1" whose change "+a" (numbered 5) ended unconfirmed.
    static var unconfirmed: StoredEntry {
        var entry = edited
        entry.reduce(.changeUnconfirmed(id: 5), numbering: 2)
        return entry
    }

    /// What a row checks of an entry.
    struct Seen: Equatable, CustomStringConvertible {
        var value: String
        var base: String
        var edits: [UInt64]
        var unconfirmed: [UInt64]
        var hasValidators: Bool
        var isStale: Bool
        var loadedLater: Bool
        var version: UInt64
        var sequence: UInt64
        var listsRows: Bool

        init(_ entry: StoredEntry) {
            value = entry.value as! String
            base = entry.base as! String
            edits = entry.edits.map(\.id)
            unconfirmed = entry.edits.filter(\.isUnconfirmed).map(\.id)
            hasValidators = entry.validators != nil
            isStale = entry.isStale
            loadedLater = entry.loadedAt == StoredEntryTests.later
            version = entry.version
            sequence = entry.sequence
            listsRows = entry.elements != nil
        }

        init(
            _ value: String,
            base: String? = nil,
            edits: [UInt64] = [],
            unconfirmed: [UInt64] = [],
            validators: Bool = true,
            stale: Bool = false,
            later: Bool = false,
            version: UInt64 = 1,
            sequence: UInt64 = 1,
            rows: Bool = false
        ) {
            self.value = value
            self.base = base ?? value
            self.edits = edits
            self.unconfirmed = unconfirmed
            hasValidators = validators
            isStale = stale
            loadedLater = later
            self.version = version
            self.sequence = sequence
            listsRows = rows
        }

        var description: String {
            "\(value) (base \(base), edits \(edits), unconfirmed \(unconfirmed), "
                + "validators \(hasValidators), stale \(isStale), "
                + "later \(loadedLater), version \(version), sequence \(sequence), "
                + "rows \(listsRows))"
        }
    }

    /// One row: a name, the entry before, the event, the entry after, and whether the
    /// value changed.
    struct Row: Sendable, CustomTestStringConvertible {
        let name: String
        let before: @Sendable () -> StoredEntry
        let event: StoredEntry.Event
        let after: Seen
        let changed: Bool

        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(
            name: "answered with rows: the answer's rows are kept with it",
            before: { entry("v1") },
            event: .answered(entry("v2", sequence: 3, rows: true)),
            after: Seen("v2", version: 9, sequence: 3, rows: true),
            changed: true
        ),
        Row(
            name: "confirmed by a 304: the rows stay, the base is the same",
            before: { entry("v1", stale: true, rows: true) },
            event: .confirmed(cacheFields: [:], directives: CacheDirectives(), at: later),
            after: Seen("v1", later: true, rows: true),
            changed: false
        ),
        Row(
            name: "a change laid on a base with rows: the rows of the base stay",
            before: { entry("v1", rows: true) },
            event: .changeLaid(appending("+b", id: 6)),
            after: Seen("v1+b", base: "v1", edits: [6], version: 9, rows: true),
            changed: true
        ),
        Row(
            name: "edited locally: the rows of the old base go",
            before: { entry("v1", rows: true) },
            event: .edited(value: "local", sequence: 4),
            after: Seen("local", version: 9, sequence: 4),
            changed: true
        ),
        Row(
            name: "a change kept: folded into the base, whose rows go",
            before: { editedWithRows },
            event: .changeEnded(id: 5, kept: true),
            after: Seen("v1+a", validators: false),
            changed: false
        ),
        Row(
            name: "a mutation answered: the rows of the old base go",
            before: { editedWithRows },
            event: .mutationAnswered(id: 5, answer: { _ in "saved" }, at: later, sequence: 7),
            after: Seen("saved", validators: false, later: true, version: 9, sequence: 7),
            changed: true
        ),
        Row(
            name: "answered with a new value: takes it and the new version",
            before: { entry("v1") },
            event: .answered(entry("v2", sequence: 3)),
            after: Seen("v2", version: 9, sequence: 3),
            changed: true
        ),
        Row(
            name: "answered with an equal value: fresh, same version, nothing to tell",
            before: { entry("v1", stale: true) },
            event: .answered(entry("v1", sequence: 3)),
            after: Seen("v1", sequence: 3),
            changed: false
        ),
        Row(
            name: "answered under a pending change: the change stays on top",
            before: { edited },
            event: .answered(entry("v2", sequence: 3)),
            after: Seen("v2+a", base: "v2", edits: [5], version: 9, sequence: 3),
            changed: true
        ),
        Row(
            name: "confirmed by a 304: fresh again, received now, value unchanged",
            before: { entry("v1", stale: true) },
            event: .confirmed(cacheFields: [:], directives: CacheDirectives(), at: later),
            after: Seen("v1", later: true),
            changed: false
        ),
        Row(
            name: "edited locally: a new base, newer than the requests before it",
            before: { edited },
            event: .edited(value: "local", sequence: 4),
            after: Seen("local+a", base: "local", edits: [5], version: 9, sequence: 4),
            changed: true
        ),
        Row(
            name: "an optimistic change laid: shown on top of the base",
            before: { entry("v1") },
            event: .changeLaid(appending("+b", id: 6)),
            after: Seen("v1+b", base: "v1", edits: [6], version: 9),
            changed: true
        ),
        Row(
            name: "an optimistic change kept: folded into the base, validators forgotten",
            before: { edited },
            event: .changeEnded(id: 5, kept: true),
            after: Seen("v1+a", validators: false),
            changed: false
        ),
        Row(
            name: "an optimistic change taken back: the base shows again",
            before: { edited },
            event: .changeEnded(id: 5, kept: false),
            after: Seen("v1", version: 9),
            changed: true
        ),
        Row(
            name: "a change that is not pending ends: nothing changes",
            before: { entry("v1") },
            event: .changeEnded(id: 5, kept: false),
            after: Seen("v1"),
            changed: false
        ),
        Row(
            name: "a mutation answered: its change replaced by the answer, fresh",
            before: { edited },
            event: .mutationAnswered(id: 5, answer: { _ in "saved" }, at: later, sequence: 7),
            after: Seen("saved", validators: false, later: true, version: 9, sequence: 7),
            changed: true
        ),
        Row(
            name: "a mutation answered with nothing for this value: only its change goes",
            before: { edited },
            event: .mutationAnswered(id: 5, answer: { _ in nil }, at: later, sequence: 7),
            after: Seen("v1", version: 9),
            changed: true
        ),
        Row(
            name: "a change whose outcome is unknown: shown still, unconfirmed",
            before: { edited },
            event: .changeUnconfirmed(id: 5),
            after: Seen("v1+a", base: "v1", edits: [5], unconfirmed: [5], validators: false),
            changed: false
        ),
        Row(
            name: "an unconfirmed change the server's answer has: settled, nothing to tell",
            before: { unconfirmed },
            event: .answered(entry("v1+a", sequence: 3)),
            after: Seen("v1+a", sequence: 3),
            changed: false
        ),
        Row(
            name: "an unconfirmed change the server's answer lacks: taken back",
            before: { unconfirmed },
            event: .answered(entry("v1", sequence: 3)),
            after: Seen("v1", version: 9, sequence: 3),
            changed: true
        ),
        Row(
            name: "an unconfirmed change under a 304 of an earlier request: stays, still stale",
            before: { unconfirmed },
            event: .confirmed(cacheFields: [:], directives: CacheDirectives(), at: later),
            after: Seen(
                "v1+a",
                base: "v1",
                edits: [5],
                unconfirmed: [5],
                validators: false,
                stale: true,
                later: true
            ),
            changed: false
        ),
        Row(
            name: "pushed by the server: a new base, fresh, the pending change on top",
            before: { edited },
            event: .pushed(value: "pushed", at: later, sequence: 6),
            after: Seen(
                "pushed+a",
                base: "pushed",
                edits: [5],
                validators: false,
                later: true,
                version: 9,
                sequence: 6
            ),
            changed: true
        ),
        Row(
            name: "pushed by the server: an unconfirmed change is settled by it",
            before: { unconfirmed },
            event: .pushed(value: "pushed", at: later, sequence: 6),
            after: Seen("pushed", validators: false, later: true, version: 9, sequence: 6),
            changed: true
        ),
        Row(
            name: "pushed by the server: a stale value is fresh again, its rows go",
            before: { entry("v1", stale: true, rows: true) },
            event: .pushed(value: "pushed", at: later, sequence: 6),
            after: Seen("pushed", validators: false, later: true, version: 9, sequence: 6),
            changed: true
        ),
        Row(
            name: "pushed by the server, equal to the value shown: nothing to tell",
            before: { entry("v1") },
            event: .pushed(value: "v1", at: later, sequence: 6),
            after: Seen("v1", validators: false, later: true, sequence: 6),
            changed: false
        ),
        Row(
            name: "validators refused by the server: forgotten, value kept",
            before: { entry("v1") },
            event: .validatorsRefused,
            after: Seen("v1", validators: false),
            changed: false
        ),
        Row(
            name: "invalidated: stale, value kept",
            before: { entry("v1") },
            event: .invalidated(refusingAnswersBefore: nil),
            after: Seen("v1", stale: true),
            changed: false
        ),
        Row(
            name: "invalidated by a write: stale, and earlier answers refused",
            before: { entry("v1") },
            event: .invalidated(refusingAnswersBefore: 8),
            after: Seen("v1", stale: true, sequence: 8),
            changed: false
        ),
    ]

    @Test("each event changes the entry as its row says", arguments: rows)
    func reduces(row: Row) {
        var entry = row.before()
        let changed = entry.reduce(row.event, numbering: 9)
        #expect(Seen(entry) == row.after)
        #expect(changed == row.changed)
    }
}
