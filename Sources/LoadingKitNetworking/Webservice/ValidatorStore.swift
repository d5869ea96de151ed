/// The validators and values of the latest responses, per resource identity, for
/// conditional revalidation; the least recently used entry goes first past the
/// capacity. An entry's value is of the type its identity names.
final class ValidatorStore: Sendable {
    struct Entry: Sendable {
        let validators: Validators
        let value: any Sendable
        /// The caching header fields of the stored response, which a `304` updates.
        let cacheFields: [String: String]
    }

    private struct State {
        var entries: [ResourceIdentity: Entry] = [:]
        var order: [ResourceIdentity] = []
    }

    private let state = Locked(State())
    let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// The entry for `key`, marked as used.
    func entry(for key: ResourceIdentity) -> Entry? {
        state.withLock { state in
            guard let entry = state.entries[key] else { return nil }
            if let index = state.order.lastIndex(of: key), index != state.order.count - 1 {
                state.order.remove(at: index)
                state.order.append(key)
            }
            return entry
        }
    }

    /// Stores `entry` under `key`, evicting the least recently used past capacity.
    func store(_ entry: Entry, for key: ResourceIdentity) {
        guard capacity > 0 else { return }
        state.withLock { state in
            if state.entries.updateValue(entry, forKey: key) != nil {
                state.order.removeAll { $0 == key }
            }
            state.order.append(key)
            while state.order.count > capacity {
                state.entries.removeValue(forKey: state.order.removeFirst())
            }
        }
    }

    /// Forgets every entry.
    func removeAll() {
        state.withLock { $0 = State() }
    }

    /// Forgets `key`.
    func remove(_ key: ResourceIdentity) {
        state.withLock { state in
            state.entries.removeValue(forKey: key)
            state.order.removeAll { $0 == key }
        }
    }

}
