extension Loading {
    /// The loader's states as they change, for any number of observers.
    ///
    /// Views use Observation: the loader's ``LoadingCore`` is observable, so SwiftUI,
    /// `withObservationTracking` and `Observations` see ``Loading/loadingState``
    /// change, changes between two reads coalesced. `states` is for code that is not a
    /// view and wants every state in order, none coalesced — a test, analytics, a
    /// command-line tool, a conformer that cannot be `@Observable`:
    ///
    /// ```swift
    /// for await state in screen.states {
    ///     render(state.placeholder)
    /// }
    /// ```
    ///
    /// Each call makes a new stream that starts with the current state and delivers
    /// every change after it, in order: a slow observer misses none, and the states it
    /// has not read yet are kept until it does. A stream ends when the loader's core
    /// goes with the loader, and an observer that stops iterating is removed.
    public var states: AsyncStream<LoadingState<ResourceType>> {
        loading.observe()
    }
}
