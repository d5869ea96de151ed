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
/// connection's reading until it is back within a quarter of that: memory stays bounded
/// however fast the server sends, and no event is dropped.
public struct LiveFollowing<Event: Sendable>: AsyncSequence, Sendable {
    /// An event, or a change of the connection's state.
    public typealias Element = LiveUpdate<Event>
    /// Following never fails: failures are states.
    public typealias Failure = Never

    /// The most updates a follower may have waiting before the connection stops reading
    /// for it.
    public static var maximumBacklog: Int { 1024 }

    /// The updates, the events of one chunk of the body together.
    private let batches: AsyncStream<[LiveUpdate<Event>]>
    private let leave: @Sendable () -> Void
    private let taken: @Sendable (Int) -> Void

    init(
        updates batches: AsyncStream<[LiveUpdate<Event>]>,
        leave: @escaping @Sendable () -> Void,
        taken: @escaping @Sendable (Int) -> Void
    ) {
        self.batches = batches
        self.leave = leave
        self.taken = taken
    }

    /// Makes the iterator; call it once.
    ///
    /// - Returns: The iterator of the updates.
    public func makeAsyncIterator() -> Iterator {
        Iterator(batches: makeBatchIterator())
    }

    /// The updates a piece at a time — the events of one chunk of the body together —
    /// for a screen that shows each piece in one turn.
    package func makeBatchIterator() -> BatchIterator {
        BatchIterator(base: batches.makeAsyncIterator(), taken: taken)
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
        private var batches: BatchIterator
        private var pending: ArraySlice<LiveUpdate<Event>> = []

        init(batches: BatchIterator) {
            self.batches = batches
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
                guard let batch = await batches.next(isolation: actor) else { return nil }
                pending = batch[...]
            }
            return pending.popFirst()
        }
    }

    /// Reads a follower's updates a piece at a time, telling the connection each piece
    /// it takes.
    package struct BatchIterator {
        private var base: AsyncStream<[LiveUpdate<Event>]>.Iterator
        private let taken: @Sendable (Int) -> Void

        init(
            base: AsyncStream<[LiveUpdate<Event>]>.Iterator,
            taken: @escaping @Sendable (Int) -> Void
        ) {
            self.base = base
            self.taken = taken
        }

        /// The next piece, or `nil` once following ended.
        package mutating func next(
            isolation actor: isolated (any Actor)?
        ) async -> [LiveUpdate<Event>]? {
            let batch = await base.next(isolation: actor)
            if let batch {
                taken(batch.count)
            }
            return batch
        }
    }
}
