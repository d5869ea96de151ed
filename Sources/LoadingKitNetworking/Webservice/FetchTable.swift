/// The fetches of a webservice that other callers may join: one per resource, as it
/// is sent — with or without the stored validators, and with the number of the
/// credential it carries. A caller that finds one in flight joins it, unless no caller
/// wants it any more (every one left, or is part of a load that was abandoned, and is
/// about to leave); the fetch is forgotten as soon as it is over, ended or abandoned by
/// its last caller.
///
/// ```swift
/// let (interest, joined) = table.interest(in: key) { await attempts() }
/// ```
final class FetchTable: Sendable {
    /// What makes two loads the same load: the resource, whether it bypasses the
    /// stored validators, and the number of the credential it is sent with.
    struct Key: Hashable, Sendable {
        let identity: ResourceIdentity
        let ignoresCache: Bool
        let credential: UInt64
    }

    /// The fetches in flight by key; its lock also guards each of them.
    private let fetches = Locked<[Key: Fetch]>([:])

    /// A new caller's interest in the fetch of `key`: the one in flight, or a new one
    /// running `work` — found or made, and counted, under one lock; a new one's work
    /// starts once the lock is released.
    ///
    /// - Parameters:
    ///   - key: What the fetch loads.
    ///   - progress: Receives the transfer's progress of a new fetch.
    ///   - discarded: Runs when the fetch ends after the caller left.
    ///   - work: The work of a new fetch.
    /// - Returns: The caller's interest, and whether it joined a fetch in flight.
    func interest<Output: Sendable>(
        in key: Key,
        progress: TransferProgress.Handler? = nil,
        discarded: (@Sendable () -> Void)? = nil,
        work: @escaping @Sendable () async -> Output
    ) -> (interest: FetchInterest<Output>, joined: Bool) {
        let enclosing = Fetch.enclosing
        let lock = fetches
        let (fetch, id, joined) = fetches.withLock { fetches in
            if let fetch = fetches[key],
                let id = fetch.addInterest(discarded: discarded, enclosing: enclosing)
            {
                return (fetch, id, true)
            }
            let fetch = Fetch.joinable(
                guardedBy: lock,
                key: key,
                discarded: discarded,
                enclosing: enclosing
            )
            fetches[key] = fetch
            return (fetch, Fetch.firstInterest, false)
        }
        if !joined {
            fetch.run(progress: progress, work)
        }
        return (FetchInterest(fetch: fetch, id: id), joined)
    }

    /// Cancels the fetches whose key `matches`: their callers get what the work makes
    /// of its cancellation.
    func cancel(where matches: (Key) -> Bool) {
        let matching = fetches.withLock { $0.filter { matches($0.key) }.map(\.value) }
        for fetch in matching {
            fetch.cancel()
        }
    }

    /// How many fetches are in flight.
    var count: Int { fetches.withLock { $0.count } }

    /// How many callers want the fetches in flight.
    var callerCount: Int {
        fetches.withLock { $0.values.reduce(0) { $0 + $1.interestCount } }
    }
}
