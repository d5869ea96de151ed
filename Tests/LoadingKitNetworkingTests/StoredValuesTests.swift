import Foundation
import LoadingKitTesting
import Testing

@testable import LoadingKitNetworking

/// The store's own rules: bounds, least recently used first, pins, request order and
/// optimistic layers.
@Suite("The store of values", .timeLimit(.minutes(1)))
struct StoredValuesTests {
    private func identity(_ path: String) -> ResourceIdentity {
        Resource<String>(url: URL(string: "https://api.example.com\(path)")!).identity
    }

    /// Stores `value` for `path` as the answer to a new request, costing `cost`.
    @discardableResult
    private func put(
        _ value: String,
        at path: String,
        in store: StoredValues,
        cost: Int = 1,
        sequence: UInt64? = nil
    ) -> StoredEntry? {
        let sequence = sequence ?? store.nextSequence()
        return store.store(value, for: identity(path), sequence: sequence) { version in
            StoredEntry(
                value: value,
                validators: nil,
                cacheFields: [:],
                directives: CacheDirectives(),
                loadedAt: .now,
                response: ResponseSummary(statusCode: 200),
                version: version,
                sequence: sequence,
                cost: cost
            )
        }
    }

    @Test("past the entry limit the least recently used entry goes first")
    func evictsLeastRecentlyUsed() {
        let store = StoredValues(limits: StorageLimits(maximumEntries: 2))
        put("a", at: "/a", in: store)
        put("b", at: "/b", in: store)
        _ = store.entry(for: identity("/a"))
        put("c", at: "/c", in: store)
        #expect(store.entry(for: identity("/a")) != nil)
        #expect(store.entry(for: identity("/b")) == nil)
        #expect(store.count == 2)
    }

    @Test("past the cost limit entries go until the cost fits, and the total is kept")
    func evictsByCost() {
        let store = StoredValues(limits: StorageLimits(maximumEntries: 100, maximumCost: 100))
        put("a", at: "/a", in: store, cost: 60)
        put("b", at: "/b", in: store, cost: 30)
        #expect(store.totalCost == 90)
        put("c", at: "/c", in: store, cost: 50)
        #expect(store.entry(for: identity("/a")) == nil)
        #expect(store.totalCost == 80)
        put("huge", at: "/huge", in: store, cost: 1_000)
        #expect(store.entry(for: identity("/huge")) == nil)
        #expect(store.totalCost <= 100)
    }

    @Test("a pinned entry is never evicted, however old; unpinned, it can go again")
    func pinnedEntriesStay() {
        let store = StoredValues(limits: StorageLimits(maximumEntries: 2))
        store.pin(identity("/shown"))
        put("shown", at: "/shown", in: store)
        put("b", at: "/b", in: store)
        put("c", at: "/c", in: store)
        #expect(store.entry(for: identity("/shown"))?.value as? String == "shown")
        #expect(store.entry(for: identity("/b")) == nil)
        store.unpin(identity("/shown"))
        put("d", at: "/d", in: store)
        put("e", at: "/e", in: store)
        #expect(store.entry(for: identity("/shown")) == nil)
        #expect(store.count == 2)
    }

    @Test("the answer to an older request never replaces the answer to a later one")
    func laterRequestWins() {
        let store = StoredValues(limits: StorageLimits())
        let early = store.nextSequence()
        let late = store.nextSequence()
        put("late", at: "/a", in: store, sequence: late)
        let entry = put("early", at: "/a", in: store, sequence: early)
        #expect(entry?.value as? String == "late")
    }

    @Test("an optimistic change is layered on the value and leaves exactly, whatever came since")
    func optimisticLayers() throws {
        let store = StoredValues(limits: StorageLimits())
        put("v1", at: "/a", in: store)
        let edited = store.apply(
            .changeLaid(StoredEntry.Edit(id: 7) { ($0 as! String) + "+edit" }),
            to: identity("/a")
        )
        #expect(edited?.value as? String == "v1+edit")
        let revalidated = put("v2", at: "/a", in: store)
        #expect(revalidated?.value as? String == "v2+edit")
        let rolledBack = store.apply(.changeEnded(id: 7, kept: false), to: identity("/a"))
        #expect(rolledBack?.value as? String == "v2")
        #expect(rolledBack?.version ?? 0 > revalidated?.version ?? .max)
    }

    @Test("a store without room keeps nothing")
    func disabledStoreKeepsNothing() {
        let store = StoredValues(limits: .disabled)
        #expect(put("a", at: "/a", in: store) == nil)
        #expect(store.count == 0)
    }

    @Test("10,000 entries: every one found, the bounds kept")
    func manyEntries() {
        let store = StoredValues(limits: StorageLimits(maximumEntries: 10_000))
        for index in 0..<12_000 {
            put("\(index)", at: "/items/\(index)", in: store)
        }
        #expect(store.count == 10_000)
        #expect(store.entry(for: identity("/items/1999")) == nil)
        #expect(store.entry(for: identity("/items/2000"))?.value as? String == "2000")
        #expect(store.entry(for: identity("/items/11999"))?.value as? String == "11999")
    }

    @Test("prefix invalidation covers the URL and what lies under it, nothing beside it")
    func prefixCovers() {
        let prefix = Invalidation.prefix(URL(string: "https://api.example.com/posts")!)
        #expect(prefix.covers(identity("/posts")))
        #expect(prefix.covers(identity("/posts/1")))
        #expect(prefix.covers(identity("/posts?page=2")))
        #expect(!prefix.covers(identity("/postscript")))
        #expect(!prefix.covers(identity("/users")))
    }
}
