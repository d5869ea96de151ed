import LoadingKitNetworking

/// The live loaders of one webservice, by the resource their state shows, so that a
/// stored value reaches every screen showing it and an invalidation reloads them.
///
/// It is attached to the webservice's store, which tells it of values stored by
/// anything but a loader (a plain `Webservice.load`, a mutation) and of invalidations;
/// a loader that applies a value it fetched, or edits its content, tells the others
/// itself, in the same main-actor turn. Each change reaches every loader in one main-actor
/// turn, and a loader shows each stored version once.
@MainActor
final class SharedValues {
    struct Weak {
        weak var observer: (any StoredValueObserver)?
    }

    /// The registrations by resource. A registration goes nil once its loader shows
    /// another resource or is released: the subscription it holds weakly ends then.
    private(set) var observers: [ResourceIdentity: [Weak]] = [:]
    /// The loaders whose lists store their items under the items' own resources: an
    /// optimistic change of an item's resource shows in their rows.
    private var itemLists: [Weak] = []
    /// How many resources may have registrations before the resources whose loaders are
    /// all gone are forgotten: twice as many as were left by the last sweep, so that a
    /// screen going through resource after resource costs O(1) per load and leaves
    /// O(live loaders) behind.
    private var sweepThreshold = 64

    nonisolated private init() {}

    /// The loaders of `webservice`.
    nonisolated static func of(_ webservice: Webservice) -> SharedValues {
        let store = webservice.store
        return store.attachment {
            let shared = SharedValues()
            webservice.beforePersistingPendingValues { [weak shared] in shared?.keepSnapshots() }
            let listener: @Sendable (StoredValues.Change) -> Void = { [weak store] change in
                if case .accountChanged(onMainActor: true) = change {
                    // Signed in or out on the main actor: no screen shows the account
                    // before for another turn.
                    MainActor.assumeIsolated {
                        guard let store else { return }
                        shared.handle(change, in: store)
                    }
                    return
                }
                Task { @MainActor in
                    guard let store else { return }
                    shared.handle(change, in: store)
                }
            }
            return (shared, listener)
        }
    }

    /// Adds `observer` to the loaders showing `identity`, dropping the registrations of
    /// that resource that went nil since it was last registered.
    func add(_ observer: any StoredValueObserver, for identity: ResourceIdentity) {
        Self.register(observer, in: &observers[identity, default: []])
        if observers.count >= sweepThreshold {
            sweep()
        }
    }

    private static func register(_ observer: any StoredValueObserver, in registered: inout [Weak]) {
        registered.removeAll { $0.observer == nil }
        registered.append(Weak(observer: observer))
    }

    /// Adds `observer`, whose list stores its items under their own resources, to the
    /// loaders told of changes to those resources.
    func addItemList(_ observer: any StoredValueObserver) {
        Self.register(observer, in: &itemLists)
    }

    /// Has one loader showing the list whose first page is `identity` keep what it
    /// shows, for a screen opening the list.
    func keepSnapshot(ofList identity: ResourceIdentity) {
        _ = liveObservers(of: identity)?.first { $0.keepSnapshot() }
    }

    /// Has every live loader keep what it shows beside the store — before the app
    /// persists its pending values.
    func keepSnapshots() {
        for identity in Array(observers.keys) {
            keepSnapshot(ofList: identity)
        }
    }

    /// Shows the stored value of `identity` to every loader showing it that has not
    /// shown it yet.
    /// `isAnswer` says the value is a mutation's answer, which list rows show too.
    func propagate(_ identity: ResourceIdentity, in store: StoredValues, isAnswer: Bool = false) {
        let live = liveObservers(of: identity)
        let lists = liveItemLists()
        guard live != nil || !lists.isEmpty, let entry = store.entry(for: identity) else {
            return
        }
        for observer in live ?? [] {
            observer.show(entry)
        }
        for list in lists {
            list.showItem(entry, of: identity, isAnswer: isAnswer)
        }
    }

    /// Applies a local edit of `identity`'s content to every loader showing it but
    /// `editor`, which made it; `stored` is the stored value it edited, if any.
    func apply(
        _ edit: any Sendable,
        to identity: ResourceIdentity,
        stored: EditedEntry?,
        from editor: any StoredValueObserver
    ) {
        guard let live = liveObservers(of: identity) else { return }
        for observer in live where observer !== editor {
            observer.apply(edit, stored: stored)
        }
    }

    private func handle(_ change: StoredValues.Change, in store: StoredValues) {
        switch change {
        case .value(let identity):
            propagate(identity, in: store)
        case .answered(let identity):
            propagate(identity, in: store, isAnswer: true)
        case .invalidated(let invalidation):
            for identity in Array(observers.keys) where invalidation.covers(identity) {
                reload(identity)
            }
        case .accountChanged:
            let live = Array(observers.keys).flatMap { liveObservers(of: $0) ?? [] }
            for observer in live {
                observer.forgetAccount()
            }
        }
    }

    /// Revalidates, in the background, what every live loader shows whose content is
    /// stale by its own rules: one request per resource, the others shown its answer.
    func revalidateStale() {
        for identity in Array(observers.keys) {
            reload(identity)
        }
    }

    /// Reloads `identity` in the background: once for every loader whose content is
    /// the stored value — the value then reaches the others — and once for each other
    /// loader, whose content is its own.
    private func reload(_ identity: ResourceIdentity) {
        guard let live = liveObservers(of: identity) else { return }
        if let mirror = live.first(where: \.mirrorsStoredValue) {
            mirror.reloadInBackground()
        }
        for observer in live where !observer.mirrorsStoredValue {
            observer.reloadInBackground()
        }
    }

    /// Forgets every registration that went, without asking any loader.
    private func sweep() {
        observers = observers.compactMapValues { registered in
            let live = registered.filter { $0.observer != nil }
            return live.isEmpty ? nil : live
        }
        sweepThreshold = max(64, observers.count * 2)
    }

    /// The item lists still shown, forgetting the others.
    private func liveItemLists() -> [any StoredValueObserver] {
        guard !itemLists.isEmpty else { return [] }
        let live = itemLists.compactMap { $0.observer }.filter(\.isShowingItems)
        if live.count != itemLists.count {
            itemLists = live.map { Weak(observer: $0) }
        }
        return live
    }

    /// The loaders still showing `identity`, forgetting the others.
    private func liveObservers(of identity: ResourceIdentity) -> [any StoredValueObserver]? {
        guard let registered = observers[identity] else { return nil }
        let live = registered.compactMap { $0.observer }.filter { $0.isObserving(identity) }
        if live.count != registered.count {
            observers[identity] = live.isEmpty ? nil : live.map { Weak(observer: $0) }
        }
        return live.isEmpty ? nil : live
    }
}

/// A loader's side of ``SharedValues``.
@MainActor
protocol StoredValueObserver: AnyObject {
    /// Whether the loader still shows `identity`.
    func isObserving(_ identity: ResourceIdentity) -> Bool
    /// Whether the loader's content is the stored value itself, rather than pages or
    /// refreshes built on it.
    var mirrorsStoredValue: Bool { get }
    /// Shows `entry` when it is newer than what the loader shows.
    func show(_ entry: StoredEntry)
    /// Applies a local edit another loader made to the content; `stored` is the stored
    /// value the edit changed, which a loader mirroring it then shows.
    func apply(_ edit: any Sendable, stored: EditedEntry?)
    /// Reloads what the loader shows, keeping it shown, unless a load of it is in
    /// flight.
    func reloadInBackground()
    /// Whether the loader still shows a list storing its items under their own
    /// resources.
    var isShowingItems: Bool { get }
    /// Shows the stored value of `identity` in the rows of the items that are its
    /// value, while a mutation changes it, once it has ended, and when it is a
    /// mutation's answer (`isAnswer`).
    func showItem(_ entry: StoredEntry, of identity: ResourceIdentity, isAnswer: Bool)
    /// Clears the loader: what it shows belongs to an account no longer signed in.
    func forgetAccount()
    /// Keeps what the loader shows beside the store, for the next screen that opens
    /// it — a list's window of pages; returns whether it did.
    func keepSnapshot() -> Bool
}
