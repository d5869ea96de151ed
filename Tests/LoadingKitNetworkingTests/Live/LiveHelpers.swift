import Foundation
import LoadingKitNetworking
import LoadingKitTesting

/// Reads a follower's updates one at a time, skipping what a test does not look at.
struct UpdateReader<Event: Sendable> {
    private var iterator: LiveFollowing<Event>.Iterator

    init(_ following: LiveFollowing<Event>) {
        iterator = following.makeAsyncIterator()
    }

    /// The next update; `nil` when following ended.
    mutating func next() async -> LiveUpdate<Event>? {
        await iterator.next()
    }

    /// The next state that `matches`, skipping the updates before it; `nil` when
    /// following ended first.
    mutating func state(
        where matches: (LiveConnectionState) -> Bool = { _ in true }
    ) async -> LiveConnectionState? {
        while let update = await iterator.next() {
            if case .state(let state) = update, matches(state) {
                return state
            }
        }
        return nil
    }

    /// The next `count` events, raw, skipping state changes; fewer when following
    /// ended first.
    mutating func events(_ count: Int) async -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        while events.count < count, let update = await iterator.next() {
            if let raw = update.rawEvent {
                events.append(raw)
            }
        }
        return events
    }

    /// Every update left until following ends.
    mutating func rest() async -> [LiveUpdate<Event>] {
        var updates: [LiveUpdate<Event>] = []
        while let update = await iterator.next() {
            updates.append(update)
        }
        return updates
    }
}

extension LiveConnectionState {
    /// Whether the state is a reconnection.
    var isReconnecting: Bool {
        if case .reconnecting = self { return true }
        return false
    }

    /// The reconnection under way, if the state is one.
    var reconnection: LiveReconnectionAttempt? {
        if case .reconnecting(let attempt) = self { return attempt }
        return nil
    }

    /// Why the stream stopped, if it did.
    var stop: LiveStop? {
        if case .stopped(let stop) = self { return stop }
        return nil
    }
}

/// Reconnection settings a test controls: no jitter, no idle timeout unless given.
func steadyReconnection(
    delay: Duration = .seconds(1),
    idleTimeout: Duration? = nil
) -> LiveReconnection {
    LiveReconnection(delay: delay, jitter: 0, idleTimeout: idleTimeout)
}
