extension StoredEntry {
    /// What can happen to a stored entry after it is made: the one input of
    /// ``StoredEntry/reduce(_:numbering:)``.
    ///
    /// ```swift
    /// store.apply(.invalidated(refusingAnswersBefore: nil), to: identity)
    /// ```
    package enum Event: Sendable {
        /// A newer request was answered: the entry takes what the answer's entry says,
        /// keeping the pending changes on top — but not the unconfirmed ones, which the
        /// answer settles.
        case answered(StoredEntry)
        /// A `304` confirmed the value: the caching fields merged with its own, the
        /// directives they make, and when it was received. It settles no unconfirmed
        /// change: the entry stays stale while one is shown.
        case confirmed(
            cacheFields: [String: String],
            directives: CacheDirectives,
            at: ContinuousClock.Instant
        )
        /// A local edit replaced the base, newer than every request numbered before
        /// `sequence`.
        case edited(value: any Sendable, sequence: UInt64)
        /// A mutation in flight laid its optimistic change on the value.
        case changeLaid(Edit)
        /// The mutation `id` ended: its change is kept in the base when the server
        /// took it (the base is then described by no validator), taken back otherwise.
        case changeEnded(id: UInt64, kept: Bool)
        /// The mutation `id` ended without saying whether the server took its change —
        /// timed out, or its connection lost, after it was sent: the change stays
        /// shown, unconfirmed, its validators forgotten, until the server's whole value
        /// comes in and tells.
        case changeUnconfirmed(id: UInt64)
        /// The mutation `id` answered: its change is taken back and `answer`, given the
        /// base, gives the new base (`nil`: the answer does not change it), received at
        /// `at`, newer than every request numbered before `sequence` — and settling the
        /// unconfirmed changes.
        case mutationAnswered(
            id: UInt64,
            answer: @Sendable (any Sendable) -> (any Sendable)?,
            at: ContinuousClock.Instant,
            sequence: UInt64
        )
        /// The server pushed a new value on a live stream at `at`, arriving after every
        /// request numbered before `sequence` was sent: it replaces the base, fresh and
        /// described by no validator, the pending changes kept on top and the
        /// unconfirmed ones settled.
        case pushed(value: any Sendable, at: ContinuousClock.Instant, sequence: UInt64)
        /// A server refused a request carrying the validators (`400`, `431`).
        case validatorsRefused
        /// The value was invalidated; with a number, answers to requests numbered
        /// before it are refused: the server changed since they were sent.
        case invalidated(refusingAnswersBefore: UInt64?)
    }
}
