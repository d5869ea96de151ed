/// A follower's view of a live resource: every event and state change from when it
/// began following, in order, until it stops or the stream stops for good.
///
/// ```swift
/// let following = webservice.follow(stories)
/// for await story in following.values { print(story.title) }
/// ```
///
/// Following ends when the task iterating it is cancelled, when the sequence is
/// released, or at ``stop()``; nothing reaches a follower after its `stop()` returned,
/// and the connection closes at once when no one else follows it. Iterate it from one
/// task.
///
/// A follower that falls behind by more than ``maximumBacklog`` updates holds the
/// connection's reading until it is back within a quarter of that: the updates waiting
/// stay bounded however fast the server sends. The bytes that arrive meanwhile wait for
/// the reading — past 256 KiB in temporary files that have no name, so memory stays flat
/// —, since FoundationNetworking cannot pause a transfer. Past 64 MiB waiting, or a file
/// that cannot be written, the connection ends after the events kept and reconnects
/// from the last event id: a stream whose events carry no id loses what the server sent
/// after them.
public struct LiveFollowing<Event: Sendable>: AsyncSequence, Sendable {
    /// An event, or a change of the connection's state.
    public typealias Element = LiveUpdate<Event>
    /// Following never fails: failures are states.
    public typealias Failure = Never

    /// The most updates a follower may have waiting before the connection stops reading
    /// for it.
    public static var maximumBacklog: Int { 1024 }

    /// The follower's hold on its mailbox of updates.
    private let ticket: Ticket
    private let leave: @Sendable () -> Void

    init(
        updates mailbox: LiveMailbox<Event>,
        leave: @escaping @Sendable () -> Void,
        taken: @escaping @Sendable (Int) -> Void
    ) {
        ticket = Ticket(mailbox: mailbox, taken: taken)
        self.leave = leave
    }

    /// Makes the iterator; call it once.
    ///
    /// - Returns: The iterator of the updates.
    public func makeAsyncIterator() -> Iterator {
        Iterator(ticket: ticket)
    }

    /// Hands the updates to `handler` on the main actor — all that wait in one call, the
    /// events of one chunk of the body or more — until following ends, then runs
    /// `ended`: how screens follow, one main-actor job for each piece. Instead of
    /// iterating; call it once.
    ///
    /// - Parameters:
    ///   - handler: Shows the updates.
    ///   - ended: Runs once, after the last updates.
    package func forward(
        to handler: @escaping @MainActor @Sendable ([LiveUpdate<Event>]) -> Void,
        ended: @escaping @MainActor @Sendable () -> Void
    ) {
        let taken = ticket.taken
        ticket.mailbox.forward(
            to: { updates in
                taken(updates.count)
                handler(updates)
            },
            ended: ended
        )
    }

    /// Stops following: the updates end after those already received, and the
    /// connection closes when no one else follows it.
    public func stop() {
        leave()
    }

    /// The decoded events alone, in order.
    public var values: AsyncCompactMapSequence<LiveFollowing<Event>, Event> {
        compactMap(\.value)
    }

    /// Reads a follower's updates one at a time.
    public struct Iterator: AsyncIteratorProtocol {
        private let ticket: Ticket
        private var pending: ArraySlice<LiveUpdate<Event>> = []

        init(ticket: Ticket) {
            self.ticket = ticket
        }

        /// The next update, or `nil` once following ended.
        ///
        /// - Returns: The update.
        public mutating func next() async -> LiveUpdate<Event>? {
            await next(isolation: nil)
        }

        /// The next update, or `nil` once following ended, staying on `actor`.
        ///
        /// - Parameter actor: The caller's actor.
        /// - Returns: The update.
        public mutating func next(
            isolation actor: isolated (any Actor)?
        ) async -> LiveUpdate<Event>? {
            while pending.isEmpty {
                guard let batch = await ticket.mailbox.take(isolation: actor) else { return nil }
                ticket.taken(batch.count)
                pending = batch[...]
            }
            return pending.popFirst()
        }
    }

    /// The follower's hold on its mailbox: released by the sequence and every iterator,
    /// it cancels the mailbox, and the follower leaves.
    final class Ticket: Sendable {
        let mailbox: LiveMailbox<Event>
        /// Tells the connection how many updates the follower took.
        let taken: @Sendable (Int) -> Void

        init(mailbox: LiveMailbox<Event>, taken: @escaping @Sendable (Int) -> Void) {
            self.mailbox = mailbox
            self.taken = taken
        }

        deinit {
            mailbox.cancel()
        }
    }
}
