import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The one connection of a live identity: its followers, the state they are told, and
/// the task that connects, reads and reconnects while anyone follows.
///
/// ```swift
/// let connection = LiveConnection(live: stories, identity: stories.identity,
///                                 webservice: webservice)
/// let following = connection.join()  // the first follower starts the task
/// following?.stop()                  // the last to leave cancels it
/// ```
///
/// The followers are counted under the connection's lock, but updates are handed to
/// them outside it: handing one over may wake the follower's task, whose cancellation
/// handler — a follower leaving — takes the lock in turn. A follower marks itself gone
/// before it leaves, and is handed nothing once marked: nothing reaches it after its
/// ``LiveFollowing/stop()`` returned.
final class LiveConnection<Event: Sendable>: LiveConnectionClosing {
    /// Where one follower's updates go.
    private final class Recipient: Sendable {
        let mailbox: LiveMailbox<Event>
        let hasLeft = Atomic(false)

        init(_ mailbox: LiveMailbox<Event>) {
            self.mailbox = mailbox
        }

        /// Hands `updates` over in one piece — the events of one chunk are taken in
        /// one turn — unless the follower left.
        func hand(_ updates: [LiveUpdate<Event>]) {
            guard !hasLeft.load(ordering: .acquiring) else { return }
            mailbox.put(updates)
        }
    }

    private struct Follower {
        let recipient: Recipient
        /// Updates handed over and not yet taken.
        var backlog = 0
    }

    private struct State {
        var followers: [UInt64: Follower] = [:]
        var lastFollower: UInt64 = 0
        var current = LiveConnectionState.connecting
        var task: Task<Void, Never>?
        var isClosed = false
        /// The reading, held until every follower is back within a quarter of the
        /// backlog allowed.
        var heldReading: CheckedContinuation<Void, Never>?

        /// Whether a follower is more than the backlog allowed behind.
        var isBehind: Bool {
            followers.values.contains { $0.backlog > LiveFollowing<Event>.maximumBacklog }
        }

        /// Whether every follower is back within a quarter of the backlog allowed.
        var isCaughtUp: Bool {
            !followers.values.contains { $0.backlog > LiveFollowing<Event>.maximumBacklog / 4 }
        }
    }

    private let state = Locked(State())
    let live: LiveResource<Event>
    let identity: ResourceIdentity
    let webservice: Webservice

    init(live: LiveResource<Event>, identity: ResourceIdentity, webservice: Webservice) {
        self.live = live
        self.identity = identity
        self.webservice = webservice
    }

    // MARK: - Followers

    /// A new follower, told the state first; the first one starts the connection.
    /// `nil` once the connection closed.
    func join() -> LiveFollowing<Event>? {
        let mailbox = LiveMailbox<Event>()
        let id: UInt64? = state.withLock { state in
            guard !state.isClosed else { return nil }
            state.lastFollower += 1
            state.followers[state.lastFollower] = Follower(
                recipient: Recipient(mailbox),
                backlog: 1
            )
            // Nobody reads the new follower's updates yet: no task is woken under the lock.
            mailbox.put([.state(state.current)])
            if state.task == nil {
                state.task = Task.detached { [self] in await run() }
            }
            return state.lastFollower
        }
        guard let id else { return nil }
        mailbox.whenCancelled { [weak self] in self?.leave(id) }
        return LiveFollowing(
            updates: mailbox,
            leave: { [weak self] in
                self?.leave(id)
                mailbox.finish()
            },
            taken: { [weak self] count in self?.take(count, from: id) }
        )
    }

    /// Follower `id` took `count` updates: the reading held for it goes on once every
    /// follower is back within a quarter of the backlog allowed.
    private func take(_ count: Int, from id: UInt64) {
        let held = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.followers[id]?.backlog -= count
            guard state.heldReading != nil, state.isCaughtUp else { return nil }
            defer { state.heldReading = nil }
            return state.heldReading
        }
        held?.resume()
    }

    /// Whether a follower is more than ``LiveFollowing/maximumBacklog`` updates behind.
    var hasFollowerBehind: Bool {
        state.withLock { $0.isBehind }
    }

    /// Returns once no follower is more than ``LiveFollowing/maximumBacklog`` updates
    /// behind — at once in the common case — or once the calling task is cancelled.
    func waitForFollowers() async {
        guard hasFollowerBehind else { return }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let waits = state.withLock { state in
                    guard state.isBehind, !Task.isCancelled else { return false }
                    state.heldReading = continuation
                    return true
                }
                if !waits {
                    continuation.resume()
                }
            }
        } onCancel: {
            releaseReading()
        }
    }

    /// Lets a held reading go on.
    private func releaseReading() {
        state.withLock { state in
            defer { state.heldReading = nil }
            return state.heldReading
        }?.resume()
    }

    /// Takes follower `id` away; the last one closes the connection.
    private func leave(_ id: UInt64) {
        let task: Task<Void, Never>?? = state.withLock { state in
            guard let gone = state.followers.removeValue(forKey: id) else { return nil }
            gone.recipient.hasLeft.store(true, ordering: .releasing)
            guard state.followers.isEmpty, !state.isClosed else { return nil }
            state.isClosed = true
            return .some(state.task)
        }
        // A follower far behind that left holds the reading no more.
        releaseReading()
        guard let task else { return }
        task?.cancel()
        webservice.liveConnections.remove(self, of: identity)
    }

    /// Tells every follower `updates`, in order.
    func tell(_ updates: [LiveUpdate<Event>]) {
        let recipients = state.withLock { state in
            for id in state.followers.keys {
                state.followers[id]!.backlog += updates.count
            }
            return state.followers.values.map { $0.recipient }
        }
        for recipient in recipients {
            recipient.hand(updates)
        }
    }

    /// Tells every follower the connection's new state, when it changed.
    func enter(_ new: LiveConnectionState) {
        let recipients = state.withLock { state -> [Recipient] in
            guard state.current != new else { return [] }
            state.current = new
            for id in state.followers.keys {
                state.followers[id]!.backlog += 1
            }
            return state.followers.values.map { $0.recipient }
        }
        for recipient in recipients {
            recipient.hand([.state(new)])
        }
    }

    /// Stops the stream for good: the followers are told why, and their updates end.
    private func stop(_ stop: LiveStop) {
        // Forgotten first: a follower that counts the connections after it saw the
        // stop finds none.
        webservice.liveConnections.remove(self, of: identity)
        let recipients = state.withLock { state in
            state.current = .stopped(stop)
            state.isClosed = true
            defer { state.followers = [:] }
            return state.followers.values.map { $0.recipient }
        }
        report(.liveStopped)
        for recipient in recipients {
            recipient.hand([.state(.stopped(stop))])
            recipient.mailbox.finish()
        }
    }

    // MARK: - Connecting

    /// What the connection carries from one connection to the next.
    private struct Progress {
        var lastEventID: String
        var reconnectionTime: Duration?
        /// Connections in a row that failed before delivering.
        var failures = 0
        /// The number of the connection under way, from 1.
        var number = 1
        /// The renewed credential to send the next connection with.
        var credential: Authenticator.Stamp?
    }

    /// How one connection ended.
    enum Ending {
        /// The calling task was cancelled: nobody follows.
        case cancelled
        /// Made again after a wait — `retryAfter` when the server said.
        case interrupted(LiveInterruption, retryAfter: Duration?)
        /// Made again at once with a renewed credential.
        case renewed(Authenticator.Stamp)
        /// Stopped for good.
        case stopped(LiveStop)
    }

    /// Connects, reads and reconnects until nobody follows or the stream stops; one
    /// idle watch serves all the connections.
    private func run() async {
        guard let transport = webservice.transport as? any StreamingTransport else {
            stop(.failed(.transportCannotStream))
            return
        }
        let watch = live.reconnection.watchedIdleTimeout.map {
            IdleWatch(clock: webservice.configuration.clock, timeout: $0)
        }
        await withTaskGroup(of: Void.self) { group in
            if let watch {
                group.addTask { await watch.run() }
            }
            await connect(through: transport, watchedBy: watch)
            group.cancelAll()
        }
    }

    /// Connects, reads and reconnects until nobody follows or the stream stops.
    private func connect(through transport: any StreamingTransport, watchedBy watch: IdleWatch?)
        async
    {
        var progress = Progress(lastEventID: live.lastEventID)
        let clock = webservice.configuration.clock
        while !Task.isCancelled {
            enter(.connecting)
            let (ending, delivered) = await connection(
                through: transport,
                watchedBy: watch,
                progress: &progress
            )
            switch ending {
            case .cancelled:
                return
            case .stopped(let reason):
                stop(reason)
                return
            case .renewed(let stamp):
                progress.credential = stamp
                progress.number += 1
                continue
            case .interrupted(let reason, let retryAfter):
                progress.failures = delivered ? 0 : progress.failures + 1
                let reconnectionTime = progress.reconnectionTime ?? live.reconnection.delay
                let delay =
                    retryAfter
                    ?? live.reconnection.wait(
                        after: reconnectionTime,
                        failures: max(0, progress.failures - 1)
                    )
                if let retryAfter, retryAfter > live.reconnection.maximumRetryAfter {
                    stop(.failed(.retryAfterTooLong(retryAfter)))
                    return
                }
                progress.number += 1
                enter(
                    .reconnecting(
                        LiveReconnectionAttempt(
                            number: progress.number,
                            reason: reason,
                            delay: delay,
                            date: clock.continuousNow.advanced(by: delay),
                            lastEventID: progress.lastEventID
                        )
                    )
                )
                report(.liveReconnecting(attempt: progress.number, delay: delay))
                do {
                    try await clock.sleep(for: delay)
                } catch {
                    return
                }
            }
        }
    }

    /// One connection: sent, its head judged, its body read until it ends, given up
    /// when silent for the idle timeout; with whether it delivered (its head was the
    /// stream's).
    private func connection(
        through transport: any StreamingTransport,
        watchedBy watch: IdleWatch?,
        progress: inout Progress
    ) async -> (Ending, delivered: Bool) {
        var request = live.request(resumingAfter: progress.lastEventID)
        let renewed = progress.credential
        progress.credential = nil
        var stamp: Authenticator.Stamp?
        if webservice.configuration.authenticator != nil {
            switch await webservice.authenticate(&request, as: renewed, for: nil) {
            case .failure(let failure):
                return (.stopped(.failed(.webservice(.authentication(failure)))), false)
            case .success(let current):
                stamp = current
            case nil:
                break
            }
        }
        watch?.watchConnection()
        defer { watch?.stopWatching() }
        let lastEventID = progress.lastEventID
        let sent = Sent(request: request, stamp: stamp, isRenewed: renewed != nil)
        // The reading is a child task: a follower leaving cancels it with the
        // connection, so that nothing is sent once nobody follows.
        let outcome = await withTaskGroup(of: Outcome?.self) { group in
            group.addTask {
                await self.read(
                    sent,
                    through: transport,
                    resumingAfter: lastEventID,
                    watchedBy: watch
                )
            }
            if let watch {
                group.addTask {
                    await watch.silence()
                    return nil
                }
            }
            while let next = await group.next() {
                // The reading ended, or the watch gave the silent connection up (or
                // ended with it): the other child stops.
                group.cancelAll()
                if let next {
                    return next
                }
            }
            preconditionFailure("the reading of a connection returns an outcome")
        }
        progress.lastEventID = outcome.lastEventID
        progress.reconnectionTime = outcome.reconnectionTime ?? progress.reconnectionTime
        return (outcome.ending, outcome.delivered)
    }

    // MARK: - Reporting

    /// Hands `kind` to the webservice's monitor, if any.
    func report(_ kind: @autoclosure () -> LoadingEvent.Kind) {
        webservice.report(kind(), about: identity, loader: LiveResource<Event>.self)
    }
}
