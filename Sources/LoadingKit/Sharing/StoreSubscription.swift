import LoadingKitNetworking

/// A loader's interest in the stored value of the resource its state shows: it pins
/// the value in the store while the loader lives and shows it the loader's way. The
/// loader's core holds it; the store's side holds it weakly.
@MainActor
final class StoreSubscription<Loader: Loading>: StoredValueObserver {
    private weak var loader: Loader?
    let identity: ResourceIdentity
    private let store: StoredValues
    /// The items' resources whose rows show a mutation's optimistic change.
    private var itemsChanged: Set<ResourceIdentity> = []

    /// Subscribes `loader` to the stored value of `identity`.
    init(loader: Loader, identity: ResourceIdentity, store: StoredValues) {
        self.loader = loader
        self.identity = identity
        self.store = store
        store.pin(identity)
    }

    deinit {
        store.unpin(identity)
    }

    func isObserving(_ identity: ResourceIdentity) -> Bool {
        guard let loader, identity == self.identity else { return false }
        return loader.loading.subscription === self
    }

    var mirrorsStoredValue: Bool {
        loader?.loading.mirrorsStoredValue ?? false
    }

    /// Shows `entry` when the content is the stored value, or when nothing is shown
    /// yet and a load of the resource is in flight and still awaited — a value read
    /// back from the persistent store, or loaded by another screen first.
    func show(_ entry: StoredEntry) {
        guard let loader else { return }
        let core = loader.loading
        let awaited =
            loader.loading.current.content == nil && core.awaitedOperation?.identity == identity
        guard core.mirrorsStoredValue || awaited else { return }
        loader.loading.show(entry, of: loader.webservice, for: loader)
    }

    func apply(_ edit: any Sendable, stored: EditedEntry?) {
        guard let loader, let edit = edit as? ContentEdit<Loader.ResourceType> else { return }
        let core = loader.loading
        let mirrored = loader.loading.mirrorsStoredValue
        if mirrored, let stored, loader.loading.contentVersion != stored.previousVersion {
            // Behind the stored value the edit changed: show the edited value itself.
            core.show(stored.entry, of: loader.webservice, for: loader)
            return
        }
        if core.edit(edit, sharing: false, for: loader), mirrored, let stored {
            core.adopt(stored, for: loader)
        }
    }

    /// Whether the loader's rows show an optimistic change of an item.
    var showsItemChanges: Bool { !itemsChanged.isEmpty }

    var isShowingItems: Bool {
        guard let loader else { return false }
        return loader.loading.subscription === self
            && loader.loading.lastResource?.storedElements != nil
    }

    /// Shows an item's stored value in its rows while a mutation changes it
    /// optimistically, and once more when the change is kept or taken back; other
    /// values of the item leave the rows to the list's own loads.
    func showItem(_ entry: StoredEntry, of identity: ResourceIdentity, isAnswer: Bool) {
        guard let loader, let elements = loader.loading.lastResource?.storedElements else {
            return
        }
        if entry.edits.isEmpty {
            guard itemsChanged.remove(identity) != nil || isAnswer else { return }
        } else {
            itemsChanged.insert(identity)
        }
        let edit = ContentEdit<Loader.ResourceType>.showing(
            entry.value,
            as: identity,
            elements: elements
        )
        if loader.loading.edit(edit, sharing: false, for: loader) {
            // The rows are no stored version of the list now: an answer equal to the
            // stored list still replaces them.
            loader.loading.record(.versionForgotten)
        }
    }

    func forgetAccount() {
        loader?.resetLoading()
    }

    func keepSnapshot() -> Bool {
        guard let loader else { return false }
        return Loader.kind.keepSnapshot(loader)
    }

    /// Loads what the loader shows if needed, which the stale stored value makes a
    /// reload keeping the content shown — or joins the load of it in flight, and once
    /// that has ended (not cancelled), loads again if the stored value is still stale:
    /// its request may have been sent before the value went stale.
    func reloadInBackground() {
        guard let loader else { return }
        let core = loader.loading
        let start: LoadStart?
        if core.mirrorsStoredValue, let resource = core.lastResource,
            resource.identity == identity
        {
            start = loader.loading.load(resource, policy: .ifNeeded, for: loader)
        } else {
            start = Loader.kind.reload(loader, .ifNeeded)
        }
        guard case .joined = start else {
            _ = start?.task
            return
        }
        Task { @MainActor [weak self] in
            await start?.finish()
            guard let self, let loader = self.loader, !loader.loading.current.wasCancelled,
                self.store.isStale(self.identity)
            else { return }
            self.reloadInBackground()
        }
    }
}
