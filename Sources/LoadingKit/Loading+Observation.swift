extension Loading {
    /// The loader's states as they change, for any number of observers.
    ///
    /// ```swift
    /// for await state in screen.states {
    ///     render(state.placeholder)
    /// }
    /// ```
    ///
    /// Each call makes a new stream that starts with the current state; a stream ends
    /// when the loader is released, and an observer that stops iterating is removed.
    /// A slow observer sees the newest 64 states.
    public var states: AsyncStream<LoadingState<ResourceType>> {
        loadingRuntime.observe(startingWith: loadingState.detached)
    }
}
