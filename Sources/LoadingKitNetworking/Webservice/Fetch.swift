import Synchronization

/// One fetch in flight: its work, in a task of its own, and the interests of the
/// callers that want its outcome. Every wait ends at once when its caller leaves; the
/// work is cancelled when the last interested caller has left, and goes on while one
/// stays.
///
/// ```swift
/// let interest = Fetch.start { await work() }  // a loader's operation, run once
/// let outcome = await interest.wait(onCancel: {})  // nil: the caller left
/// ```
///
/// Why each wait ends exactly once: a waiter is resumed by whichever of the outcome,
/// its caller's leaving and its task's cancellation takes it out of the state first,
/// under the fetch's lock; a wait that starts after the outcome or the leaving finds
/// them in the state and does not wait. A fetch others may join is guarded by its
/// table's lock, so joining it, ending it and forgetting it are each one step: it is
/// forgotten in the step that ends it — its outcome or its last caller leaving — so a
/// caller never joins a fetch whose outcome it could miss. A fetch's task is made
/// after the table's lock is released — the new task would otherwise find the lock
/// held — and a cancellation that comes first is kept for it: the task and the
/// cancellation meet in one atomic exchange, and whichever comes second cancels.
package final class Fetch: Sendable {
    /// Resumed exactly once, taken out of the state under the lock.
    typealias Waiter = UnsafeContinuation<(any Sendable)?, Never>

    /// One caller's interest.
    private struct Interest {
        var waiters: [Waiter] = []
        /// Runs when the fetch ends after the caller left: what it brought is dropped.
        var discarded: (@Sendable () -> Void)?
        var hasLeft = false
        /// The fetch whose work the caller is part of, if any: once every caller of that
        /// one has left, this caller wants nothing either, whether or not it has yet
        /// seen its task's cancellation.
        var enclosing: Fetch?

        /// Whether the caller still wants the outcome.
        var isWanted: Bool { !hasLeft && enclosing?.isAbandoned != true }
    }

    private struct State {
        var outcome: (any Sendable)?
        /// The interests in the order they came, numbered from ``firstInterest``:
        /// none is ever taken out.
        var interests: [Interest] = []
        /// How many interests have not left.
        var remaining = 0

        /// Whether the fetch is not over and a caller still wants its outcome.
        var isWanted: Bool { outcome == nil && interests.contains(where: \.isWanted) }

        /// Counts `interest` in; returns its number.
        mutating func add(_ interest: Interest) -> Int {
            interests.append(interest)
            remaining += 1
            return interests.count - 1 + Fetch.firstInterest
        }

        /// Where the interest numbered `id` is in ``interests``.
        static func index(of id: Int) -> Int {
            id - Fetch.firstInterest
        }
    }

    /// The lock that guards ``state``: the table's, for a fetch other callers may join,
    /// else one of its own. Its value is the table's fetches by key.
    private let lock: Locked<[FetchTable.Key: Fetch]>
    /// The fetch's key in its table, if it has one.
    private let key: FetchTable.Key?
    /// Read and changed only while holding ``lock``.
    nonisolated(unsafe) private var state = State()
    /// The task of the work: written once, then published by ``taskState``, and read
    /// only after that says it is there.
    nonisolated(unsafe) private var task: Task<Void, Never>?
    /// Whether ``task`` is there and may be read (``taskStarted``), or a cancellation
    /// came before it (``cancelledBeforeTask``); 0 for neither.
    private let taskState = Atomic<UInt8>(0)
    private static let taskStarted: UInt8 = 1
    private static let cancelledBeforeTask: UInt8 = 2
    /// Whether every caller left before the outcome: the work is cancelled. Set under
    /// the lock; read without it by the fetches this one's work waits for.
    private let abandonment = Atomic<Bool>(false)

    /// The number of the interest a fetch starts with.
    static let firstInterest = 1

    /// The fetch whose work the current task runs, if any.
    package static var enclosing: Fetch? { running?.fetch }

    /// The fetch whose work the current task runs, held weakly: a task the work starts
    /// inherits it, and keeps nothing alive by it.
    @TaskLocal private static var running: Reference?

    /// A fetch held weakly.
    private final class Reference: Sendable {
        weak let fetch: Fetch?

        init(_ fetch: Fetch) {
            self.fetch = fetch
        }
    }

    /// Whether every caller left before the outcome.
    var isAbandoned: Bool { abandonment.load(ordering: .acquiring) }

    /// Whether a caller still wants the outcome: one that has not left, and is not
    /// part of the work of a fetch every caller of which has left.
    package var isWanted: Bool {
        lock.withLock { _ in state.isWanted }
    }

    /// A fetch with one interest, ``firstInterest``, guarded by `lock`, whose work
    /// starts with ``run(progress:_:)``.
    private init(
        guardedBy lock: Locked<[FetchTable.Key: Fetch]>,
        key: FetchTable.Key?,
        discarded: (@Sendable () -> Void)?,
        enclosing: Fetch?
    ) {
        self.lock = lock
        self.key = key
        _ = state.add(Interest(discarded: discarded, enclosing: enclosing))
    }

    /// Starts `work` as a fetch of its own, which nobody else can join, for one caller.
    ///
    /// - Parameters:
    ///   - progress: Receives the transfer's progress; by default, the observer of the
    ///     calling task, if any.
    ///   - discarded: Runs when the work ends after the caller left.
    ///   - work: What to run.
    /// - Returns: The caller's interest.
    package static func start<Output: Sendable>(
        progress: TransferProgress.Handler? = nil,
        discarded: (@Sendable () -> Void)? = nil,
        _ work: @escaping @Sendable () async -> Output
    ) -> FetchInterest<Output> {
        // A screen's own operation, started on its actor: part of no other fetch's work.
        let fetch = Fetch(guardedBy: Locked([:]), key: nil, discarded: discarded, enclosing: nil)
        fetch.run(progress: progress, work)
        return FetchInterest(fetch: fetch, id: firstInterest)
    }

    /// A fetch of a table, guarded by the table's lock `lock` — which the caller
    /// holds — under `key`, with its first interest (``firstInterest``): the caller
    /// puts it in the table, then starts its work with ``run(progress:_:)`` once the
    /// lock is released.
    static func joinable(
        guardedBy lock: Locked<[FetchTable.Key: Fetch]>,
        key: FetchTable.Key,
        discarded: (@Sendable () -> Void)?,
        enclosing: Fetch?
    ) -> Fetch {
        Fetch(guardedBy: lock, key: key, discarded: discarded, enclosing: enclosing)
    }

    /// Runs `work` in a task of its own, which keeps the calling task's task-locals and
    /// observes progress with `progress` when given, and hands its outcome to every
    /// interest. Called once, by whoever made the fetch, without its lock; when the
    /// fetch was cancelled before, the work starts cancelled.
    func run<Output: Sendable>(
        progress: TransferProgress.Handler?,
        _ work: @escaping @Sendable () async -> Output
    ) {
        task = Task { [self] in
            // Cancelled before the task was made: the work starts cancelled.
            if taskState.load(ordering: .acquiring) == Self.cancelledBeforeTask {
                withUnsafeCurrentTask { $0?.cancel() }
            }
            let outcome = await Self.$running.withValue(Reference(self)) {
                if let progress {
                    await TransferProgress.observing(progress) { await work() }
                } else {
                    await work()
                }
            }
            deliver(outcome)
        }
        let (published, _) = taskState.compareExchange(
            expected: 0,
            desired: Self.taskStarted,
            ordering: .acquiringAndReleasing
        )
        if !published {
            task?.cancel()
        }
    }

    /// Counts a new interest, with the lock held; `nil` when the fetch is over, or
    /// wanted by no caller (it is about to be abandoned), and can be joined no more.
    func addInterest(discarded: (@Sendable () -> Void)?, enclosing: Fetch?) -> Int? {
        guard state.isWanted, !isAbandoned else { return nil }
        return state.add(Interest(discarded: discarded, enclosing: enclosing))
    }

    /// How many callers want the outcome, with the lock held.
    var interestCount: Int { state.remaining }

    /// Cancels the work: every caller gets what the work makes of its cancellation.
    /// Before the task is there, the cancellation is kept for it.
    func cancel() {
        let (kept, observed) = taskState.compareExchange(
            expected: 0,
            desired: Self.cancelledBeforeTask,
            ordering: .acquiringAndReleasing
        )
        if !kept, observed == Self.taskStarted {
            task?.cancel()
        }
    }

    /// Hands `outcome` to every caller still interested, tells those that left, and
    /// takes the fetch out of its table.
    private func deliver(_ outcome: any Sendable) {
        let (waiters, discarded) = lock.withLock { fetches in
            state.outcome = outcome
            var waiters: [Waiter] = []
            var discarded: [@Sendable () -> Void] = []
            for (index, interest) in state.interests.enumerated() {
                if interest.hasLeft {
                    discarded += interest.discarded.map { [$0] } ?? []
                } else {
                    waiters += interest.waiters
                }
                state.interests[index] = Interest(hasLeft: interest.hasLeft)
            }
            forget(in: &fetches)
            return (waiters, discarded)
        }
        for waiter in waiters {
            waiter.resume(returning: outcome)
        }
        for discarded in discarded {
            discarded()
        }
    }

    /// Takes the fetch, over, out of `fetches`, its table, unless another fetch of its
    /// key took its place.
    private func forget(in fetches: inout [FetchTable.Key: Fetch]) {
        if let key, fetches[key] === self {
            fetches[key] = nil
        }
    }

    /// Waits for the outcome on behalf of interest `id`, on the caller's actor — a
    /// loader's wait is registered in its main-actor turn and resumed there with one
    /// hop; `nil` once it left. With `onCancel`, the waiting task's cancellation runs
    /// it, then the interest leaves.
    func wait(
        _ id: Int,
        onCancel: (@Sendable () -> Void)?,
        isolation: isolated (any Actor)? = #isolation
    ) async -> (any Sendable)? {
        await withTaskCancellationHandler {
            await withUnsafeContinuation(isolation: isolation) { (continuation: Waiter) in
                let ready: (any Sendable)?? = lock.withLock { _ in
                    let index = State.index(of: id)
                    guard !state.interests[index].hasLeft else {
                        return .some(nil)
                    }
                    if let outcome = state.outcome {
                        return .some(outcome)
                    }
                    state.interests[index].waiters.append(continuation)
                    return nil
                }
                if let ready {
                    continuation.resume(returning: ready)
                }
            }
        } onCancel: {
            guard let onCancel else { return }
            onCancel()
            leave(id)
        }
    }

    /// Takes interest `id` out: its waits end with `nil`; the last one out abandons
    /// the fetch, takes it out of its table and cancels its work.
    func leave(_ id: Int) {
        let (waiters, abandoned) = lock.withLock { fetches in
            let index = State.index(of: id)
            let interest = state.interests[index]
            guard !interest.hasLeft else {
                return ([Waiter](), false)
            }
            state.interests[index] = Interest(discarded: interest.discarded, hasLeft: true)
            state.remaining -= 1
            guard state.remaining == 0, state.outcome == nil else {
                return (interest.waiters, false)
            }
            abandonment.store(true, ordering: .releasing)
            forget(in: &fetches)
            return (interest.waiters, true)
        }
        for waiter in waiters {
            waiter.resume(returning: nil)
        }
        if abandoned {
            cancel()
        }
    }
}

/// A caller's interest in a ``Fetch``: it waits for the outcome, or leaves.
///
/// ```swift
/// let interest = webservice.interest(in: resource, identity: identity)
/// let fetched = await interest.wait(onCancel: {})  // nil: the caller left
/// interest.leave()
/// ```
package struct FetchInterest<Output: Sendable>: Sendable {
    let fetch: Fetch
    let id: Int

    /// Waits for the outcome; `nil` once the caller left. With `onCancel`, the waiting
    /// task's cancellation runs it, then the caller leaves and the wait ends at once;
    /// without, the wait goes on whatever happens to the task.
    ///
    /// - Parameters:
    ///   - onCancel: What the waiting task's cancellation does first.
    ///   - isolation: The caller's actor, where the wait runs.
    /// - Returns: The outcome, or `nil`.
    package func wait(
        onCancel: (@Sendable () -> Void)?,
        isolation: isolated (any Actor)? = #isolation
    ) async -> Output? {
        await fetch.wait(id, onCancel: onCancel) as? Output
    }

    /// Leaves the fetch: every wait of this interest ends with `nil`, now and later;
    /// the work is cancelled when no other caller wants it.
    package func leave() {
        fetch.leave(id)
    }
}
