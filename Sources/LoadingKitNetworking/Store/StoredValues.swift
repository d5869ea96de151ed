import Foundation
import Synchronization

/// A webservice's store: one entry per resource identity, bounded by a number of
/// entries and an estimated cost, the least recently used going first — except the
/// entries a live loader shows, which are pinned.
///
/// Lookups, stores and evictions cost the same however many entries there are: the
/// entries sit in slots of an array, indexed by identity, on a list from the least to
/// the most recently used that pinned entries leave.
///
/// Every change is told to the listener the loading layer attaches, outside the lock.
package final class StoredValues: Sendable {
    /// What changed in the store.
    package enum Change: Sendable {
        /// The value of this resource changed.
        case value(ResourceIdentity)
        /// These resources were invalidated.
        case invalidated(Invalidation)
        /// The value of this resource is a mutation's answer now: it is shown wherever
        /// the resource is, list rows of its items included.
        case answered(ResourceIdentity)
        /// Another account signed in, or none: every value shown belongs to the one
        /// before. Told on the main actor when `onMainActor`.
        case accountChanged(onMainActor: Bool)
    }

    /// An entry in its slot. A class, so that reading a field of a slot's node never
    /// copies the entry, which holds a dozen references.
    fileprivate final class Node {
        let identity: ResourceIdentity
        var entry: StoredEntry
        /// The next entry towards the least recently used; -1 for none.
        var older = -1
        /// The next entry towards the most recently used; -1 for none.
        var newer = -1
        /// Whether the entry is on the list, which pinned entries are not.
        var isListed = false

        init(identity: ResourceIdentity, entry: StoredEntry) {
            self.identity = identity
            self.entry = entry
        }
    }

    fileprivate struct State {
        var slots: [ResourceIdentity: Int] = [:]
        var nodes: [Node?] = []
        var freeSlots: [Int] = []
        var oldest = -1
        var newest = -1
        var totalCost = 0
        var pins: [ResourceIdentity: Int] = [:]
        var lastVersion: UInt64 = 0
        var listener: (@Sendable (Change) -> Void)?
        var attachment: (any AnyObject & Sendable)?
        /// The changes of writes waiting in an outbox, laid on every entry of their
        /// resources — stored now or later — until the writes end, with the account
        /// that made each: only those of the account signed in are laid.
        var held: [ResourceIdentity: [(edit: StoredEntry.Edit, account: String?)]] = [:]
        /// The account signed in, whose held changes are laid.
        var account: String?
    }

    /// The limits the store keeps to.
    package let limits: StorageLimits
    private let state = Locked(State())
    private let sequences = Atomic<UInt64>(0)

    /// Creates an empty store.
    ///
    /// - Parameter limits: How many entries, and how many bytes, it keeps.
    package init(limits: StorageLimits) {
        self.limits = limits
    }

    /// The number of the next request, which orders the answers stored.
    package func nextSequence() -> UInt64 {
        sequences.add(1, ordering: .relaxed).newValue
    }

    // MARK: - Reading

    /// The entry of `identity`, marked as the most recently used.
    package func entry(for identity: ResourceIdentity) -> StoredEntry? {
        state.withLock { state in
            guard let slot = state.slots[identity] else { return nil }
            state.touch(slot)
            return state.nodes[slot]!.entry
        }
    }

    /// The entry of `identity` when a value was stored after `version` — `nil` in the
    /// common case, without copying the entry — and how many loaders pin it.
    package func entry(
        for identity: ResourceIdentity,
        newerThan version: UInt64
    ) -> (newer: StoredEntry?, pins: Int) {
        state.withLock { state in
            let pins = state.pins[identity] ?? 0
            guard let slot = state.slots[identity], state.nodes[slot]!.entry.version > version
            else { return (nil, pins) }
            return (state.nodes[slot]!.entry, pins)
        }
    }

    /// Whether the entry of `identity` is stale, without copying it; `false` when
    /// nothing is stored.
    package func isStale(_ identity: ResourceIdentity) -> Bool {
        state.withLock { state in
            state.slots[identity].map { state.nodes[$0]!.entry.isStale } ?? false
        }
    }

    /// How many entries the store holds.
    package var count: Int { state.withLock { $0.slots.count } }

    /// The estimated bytes the store holds.
    package var totalCost: Int { state.withLock { $0.totalCost } }

    // MARK: - Writing

    /// Stores `value`, the answer to request `sequence`, as the value of `identity` —
    /// unless the entry holds the answer to a later request, or `isRefused` says so
    /// as the store takes it — and returns the entry. `notifies` is `false` when the
    /// caller tells the loaders itself.
    package func store(
        _ value: any Sendable,
        for identity: ResourceIdentity,
        sequence: UInt64,
        notifies: Bool = true,
        unless isRefused: () -> Bool = { false },
        describe: (UInt64) -> StoredEntry
    ) -> StoredEntry? {
        guard limits.isEnabled else { return nil }
        let (entry, changed) = state.withLock { state -> (StoredEntry?, Bool) in
            guard !isRefused() else {
                return (state.slots[identity].map { state.nodes[$0]!.entry }, false)
            }
            let changed = state.store(for: identity, sequence: sequence, describe: describe)
            if changed {
                state.evict(within: limits)
            }
            return (state.slots[identity].map { state.nodes[$0]!.entry }, changed)
        }
        if changed, notifies {
            tell(.value(identity))
        }
        return entry
    }

    /// Stores each of `elements`, the answer to request `sequence`, as the value of its
    /// identity — unless its entry holds the answer to a later request, or `onlyMissing`
    /// and one is stored — under one lock, and tells the loaders showing one.
    ///
    /// - Parameters:
    ///   - elements: The elements, each with its resource's identity.
    ///   - sequence: The number of the request they answered.
    ///   - onlyMissing: Whether an element stored already is left as it is.
    ///   - describe: The entry of an element, given its version.
    package func store(
        _ elements: [StoredElement],
        sequence: UInt64,
        onlyMissing: Bool,
        describe: (StoredElement, UInt64) -> StoredEntry
    ) {
        guard limits.isEnabled else { return }
        let (shown, listener) = state.withLock { state in
            var changedAny = false
            var shown: [ResourceIdentity] = []
            for element in elements {
                if onlyMissing, let slot = state.slots[element.identity] {
                    // Left as it is, but used again: its list is about to be shown.
                    state.touch(slot)
                    continue
                }
                let changed = state.store(for: element.identity, sequence: sequence) {
                    describe(element, $0)
                }
                changedAny = changedAny || changed
                if changed, state.pins[element.identity] != nil {
                    shown.append(element.identity)
                }
            }
            if changedAny {
                state.evict(within: limits)
            }
            return (shown, state.listener)
        }
        for identity in shown {
            listener?(.value(identity))
        }
    }

    /// Changes the entry of `identity` as `event` says — when `condition` holds for it
    /// — giving it a new version and telling the loaders when its value changes (unless
    /// `notifies` is `false`: the caller tells them itself).
    ///
    /// - Parameters:
    ///   - event: What happened to the resource.
    ///   - identity: The resource.
    ///   - notifies: Whether the loaders are told of a new value.
    ///   - condition: Read under the store's lock, with the entry before.
    /// - Returns: The entry after, or `nil` when there is none or `condition` did not
    ///   hold.
    @discardableResult
    package func apply(
        _ event: StoredEntry.Event,
        to identity: ResourceIdentity,
        notifies: Bool = true,
        if condition: (StoredEntry) -> Bool = { _ in true }
    ) -> StoredEntry? {
        let (entry, changed) = state.withLock { state -> (StoredEntry?, Bool) in
            guard let slot = state.slots[identity], condition(state.nodes[slot]!.entry) else {
                return (nil, false)
            }
            var entry = state.nodes[slot]!.entry
            let changed = entry.reduce(event, numbering: state.lastVersion + 1)
            if changed {
                state.lastVersion += 1
            }
            state.replace(slot, with: entry)
            state.evict(within: limits)
            return (entry, changed)
        }
        if changed, notifies {
            tell(.value(identity))
        }
        return entry
    }

    /// Lays `edit`, made by `account`, on the value of `identity` — stored now, or
    /// whenever it is stored while `account` is signed in — until
    /// ``release(_:of:)``; tells the loaders when the value changes.
    package func hold(
        _ edit: StoredEntry.Edit,
        for identity: ResourceIdentity,
        madeBy account: String?
    ) {
        let changed = state.withLock { state -> Bool in
            state.held[identity, default: []].append((edit, account))
            guard account == state.account, let slot = state.slots[identity],
                !state.nodes[slot]!.entry.edits.contains(where: { $0.id == edit.id })
            else { return false }
            var entry = state.nodes[slot]!.entry
            state.lastVersion += 1
            entry.reduce(.changeLaid(edit), numbering: state.lastVersion)
            state.replace(slot, with: entry)
            return true
        }
        if changed {
            tell(.value(identity))
        }
    }

    /// Lays from now on the held changes `account` made, and no other account's.
    package func showPendingChanges(madeBy account: String?) {
        state.withLock { $0.account = account }
    }

    /// Stops laying the edits numbered `id` on the values of `identities` stored from
    /// now on; the entries that have them keep them until they are removed.
    package func release(_ id: UInt64, of identities: [ResourceIdentity]) {
        state.withLock { state in
            for identity in identities {
                state.held[identity]?.removeAll { $0.edit.id == id }
                if state.held[identity]?.isEmpty == true {
                    state.held[identity] = nil
                }
            }
        }
    }

    /// Marks the entries `invalidation` covers as stale; returns how many it covered.
    /// With `refusingEarlierAnswers`, the answer to a request sent before is not
    /// stored over them: the server changed since it was sent.
    @discardableResult
    package func invalidate(_ invalidation: Invalidation, refusingEarlierAnswers: Bool = false)
        -> Int
    {
        let sequence = refusingEarlierAnswers ? nextSequence() : nil
        let count = state.withLock { state in
            var count = 0
            for (identity, slot) in state.slots where invalidation.covers(identity) {
                state.nodes[slot]!.entry.reduce(
                    .invalidated(refusingAnswersBefore: sequence),
                    numbering: state.lastVersion
                )
                count += 1
            }
            return count
        }
        tell(.invalidated(invalidation))
        return count
    }

    /// Forgets the entry of `identity`.
    package func remove(_ identity: ResourceIdentity) {
        state.withLock { state in
            if let slot = state.slots[identity] {
                state.delete(slot)
            }
        }
    }

    /// Forgets every entry; pins stay.
    package func removeAll() {
        state.withLock { state in
            for slot in Array(state.slots.values) {
                state.delete(slot)
            }
        }
    }

    // MARK: - Pins

    /// Keeps the entry of `identity` — now or once stored — until as many
    /// ``unpin(_:)`` calls.
    package func pin(_ identity: ResourceIdentity) {
        state.withLock { state in
            state.pins[identity, default: 0] += 1
            if let slot = state.slots[identity], state.nodes[slot]!.isListed {
                state.unlist(slot)
            }
        }
    }

    /// Undoes one ``pin(_:)``: the entry can be evicted again once nothing pins it.
    package func unpin(_ identity: ResourceIdentity) {
        state.withLock { state in
            guard let pins = state.pins[identity] else { return }
            guard pins <= 1 else {
                state.pins[identity] = pins - 1
                return
            }
            state.pins[identity] = nil
            if let slot = state.slots[identity] {
                state.list(slot)
            }
            state.evict(within: limits)
        }
    }

    /// How many live loaders pin the entry of `identity`.
    package func pinCount(of identity: ResourceIdentity) -> Int {
        state.withLock { $0.pins[identity] ?? 0 }
    }

    // MARK: - Listening

    /// The object attached to the store, attaching the one `make` returns, with its
    /// listener, on the first call.
    package func attachment<Attached: AnyObject & Sendable>(
        _ make: () -> (Attached, @Sendable (Change) -> Void)
    ) -> Attached {
        state.withLock { state in
            if let attached = state.attachment as? Attached {
                return attached
            }
            let (attached, listener) = make()
            state.attachment = attached
            state.listener = listener
            return attached
        }
    }

    /// Tells the listener of `change`.
    package func tell(_ change: Change) {
        state.withLock { $0.listener }?(change)
    }
}

// MARK: - The list of entries

extension StoredValues.State {
    /// Stores the entry `describe` makes as the value of `identity` — unless its entry
    /// holds the answer to a later request than `sequence` — laying the changes held
    /// for it on a new one; returns whether the value changed.
    fileprivate mutating func store(
        for identity: ResourceIdentity,
        sequence: UInt64,
        describe: (UInt64) -> StoredEntry
    ) -> Bool {
        lastVersion += 1
        guard let slot = slots[identity] else {
            var fresh = describe(lastVersion)
            for held in held[identity] ?? [] where held.account == account {
                fresh.reduce(.changeLaid(held.edit), numbering: lastVersion)
            }
            insert(fresh, for: identity)
            return true
        }
        var entry = nodes[slot]!.entry
        guard entry.sequence <= sequence else { return false }
        let changed = entry.reduce(.answered(describe(lastVersion)), numbering: lastVersion)
        replace(slot, with: entry)
        touch(slot)
        return changed
    }

    /// Puts a new entry in a free slot, on the list unless it is pinned.
    fileprivate mutating func insert(_ entry: StoredEntry, for identity: ResourceIdentity) {
        let node = StoredValues.Node(identity: identity, entry: entry)
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = free
            nodes[slot] = node
        } else {
            slot = nodes.count
            nodes.append(node)
        }
        slots[identity] = slot
        totalCost += entry.cost
        if pins[identity] == nil {
            list(slot)
        }
    }

    /// Replaces the entry in `slot`, keeping the cost current.
    fileprivate mutating func replace(_ slot: Int, with entry: StoredEntry) {
        totalCost += entry.cost - nodes[slot]!.entry.cost
        nodes[slot]!.entry = entry
    }

    /// Moves `slot` to the most recently used end, when it is on the list.
    fileprivate mutating func touch(_ slot: Int) {
        guard nodes[slot]!.isListed, newest != slot else { return }
        unlist(slot)
        list(slot)
    }

    /// Removes the entry in `slot`.
    fileprivate mutating func delete(_ slot: Int) {
        if nodes[slot]!.isListed {
            unlist(slot)
        }
        let node = nodes[slot]!
        totalCost -= node.entry.cost
        slots[node.identity] = nil
        nodes[slot] = nil
        freeSlots.append(slot)
    }

    /// Evicts the least recently used entries on the list while past `limits`.
    fileprivate mutating func evict(within limits: StorageLimits) {
        while oldest >= 0, slots.count > limits.maximumEntries || totalCost > limits.maximumCost {
            delete(oldest)
        }
    }

    /// Puts `slot` at the most recently used end of the list.
    fileprivate mutating func list(_ slot: Int) {
        nodes[slot]!.older = newest
        nodes[slot]!.newer = -1
        nodes[slot]!.isListed = true
        if newest >= 0 {
            nodes[newest]!.newer = slot
        } else {
            oldest = slot
        }
        newest = slot
    }

    /// Takes `slot` off the list.
    fileprivate mutating func unlist(_ slot: Int) {
        let node = nodes[slot]!
        if node.older >= 0 {
            nodes[node.older]!.newer = node.newer
        } else {
            oldest = node.newer
        }
        if node.newer >= 0 {
            nodes[node.newer]!.older = node.older
        } else {
            newest = node.older
        }
        nodes[slot]!.isListed = false
        nodes[slot]!.older = -1
        nodes[slot]!.newer = -1
    }
}
