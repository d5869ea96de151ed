import LoadingKitNetworking

/// A screen's value accumulated from a live stream's events: what
/// ``Loading/follow(_:startingWith:restart:reducing:)`` shows.
///
/// ```swift
/// let accumulation = LiveAccumulation(initial: "", restart: .reset) { $0 += $1 }
/// accumulation.begin(for: screen)
/// accumulation.show(updates, on: screen)  // for each piece of the stream
/// ```
@MainActor
final class LiveAccumulation<Value: Sendable, Event: Sendable> {
    private let initial: Value
    private let restart: LiveReload
    private let reduce: @MainActor (inout Value, Event) -> Void
    /// The new stream's value, kept aside until the stream ends, while the old one
    /// stays shown (``LiveReload/replaceAtEnd``).
    private var pending: Value?
    /// Whether the new stream's value is kept aside.
    private var isReplacing = false
    /// The ID of the last event shown, to follow again after.
    private(set) var lastEventID = ""

    init(
        initial: Value,
        restart: LiveReload,
        reduce: @escaping @MainActor (inout Value, Event) -> Void
    ) {
        self.initial = initial
        self.restart = restart
        self.reduce = reduce
    }

    /// Starts over: the loading placeholder, or the content kept while the new stream
    /// is gathered aside.
    func begin(for loader: some Loading<Value>) {
        let core = loader.loading
        if restart == .replaceAtEnd, core.current.content != nil {
            isReplacing = true
            core.update(for: loader) { $0.begin(.reloading) }
        } else {
            let hadContent = core.current.hasContent
            core.update(for: loader) { $0.begin(.loading, forAnotherResource: true) }
            if hadContent { loader.contentWasCleared() }
        }
    }

    /// Shows `updates` on `loader`: the events between two changes of the connection's
    /// state reduced in turn, and configured once.
    func show(_ updates: [LiveUpdate<Event>], on loader: some Loading<Value>) {
        let core = loader.loading
        var reduced: Value?
        for update in updates {
            switch update {
            case .event(let raw, let event):
                lastEventID = raw.lastEventID
                if isReplacing {
                    var value = pending ?? initial
                    pending = nil
                    reduce(&value, event)
                    pending = value
                } else {
                    var value = reduced ?? takeContent(of: core) ?? initial
                    reduced = nil
                    reduce(&value, event)
                    reduced = value
                }
            case .undecodable(_, let error):
                apply(&reduced, on: loader)
                let now = loader.loadingClock.continuousNow
                core.update(for: loader) { $0.fail(Self.failure(error), at: now) }
            case .state(let state):
                apply(&reduced, on: loader)
                core.update(for: loader) { $0.follow(state) }
                end(on: loader, after: state)
            }
        }
        apply(&reduced, on: loader)
    }

    /// Applies the value reduced, if any, and forgets it.
    private func apply(_ reduced: inout Value?, on loader: some Loading<Value>) {
        guard let value = reduced else { return }
        reduced = nil
        apply(value, on: loader)
    }

    /// What the end of a stream — the server's, or a stop — shows: the value gathered
    /// aside, `initial` when nothing was shown, the failure beside the content.
    private func end(on loader: some Loading<Value>, after state: LiveConnectionState) {
        let core = loader.loading
        switch state {
        case .reconnecting(let next) where next.reason == .ended:
            finishReplacing(on: loader)
        case .stopped(.noContent):
            finishReplacing(on: loader)
            if core.current.content == nil {
                apply(initial, on: loader)
            }
        case .stopped(.failed(let error)):
            let now = loader.loadingClock.continuousNow
            core.update(for: loader) { $0.fail(Self.failure(error), at: now) }
        default:
            break
        }
    }

    /// Shows the value gathered aside, if any.
    private func finishReplacing(on loader: some Loading<Value>) {
        guard isReplacing else { return }
        isReplacing = false
        if let value = pending {
            pending = nil
            apply(value, on: loader)
        }
    }

    /// The content, taken out of the state so that changing it copies nothing.
    private func takeContent(of core: LoadingCore<Value>) -> Value? {
        var content: Value?
        core.stage { state in
            state.stage { shown in
                content = shown
                shown = nil
            }
        }
        return content
    }

    /// What the state shows of a stream's failure.
    private static func failure(_ error: LiveStreamError) -> LoadingError {
        if case .webservice(let failure) = error {
            return .webservice(failure)
        }
        return .failed(error.description)
    }

    /// Configures `value` and applies it as the content.
    private func apply(_ value: Value, on loader: some Loading<Value>) {
        let core = loader.loading
        let now = loader.loadingClock.continuousNow
        let empty = core.configureIfShown(value, for: loader)
        core.update(for: loader) { $0.apply(value, isEmpty: empty, at: now) }
    }
}
