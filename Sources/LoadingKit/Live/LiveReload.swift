/// What a screen showing a value accumulated from a live stream shows when it starts
/// following again from the beginning (``Loading/follow(_:startingWith:restart:reducing:)``
/// called again).
///
/// ```swift
/// answer.follow(completion, startingWith: "", restart: .replaceAtEnd) { $0 += $1.token }
/// ```
///
/// The default is ``reset``: a live stream may never end, so a value kept until the new
/// stream's end would hide the new stream for ever. A reconnection is no restart: it
/// resumes after the last event received and goes on accumulating.
public enum LiveReload: Sendable, Equatable {
    /// The loading placeholder until the new stream's first event, then the new
    /// stream's value as it grows. (TanStack Query's `refetchMode: 'reset'`.)
    case reset
    /// The old value stays shown while the new stream runs, and is replaced by the new
    /// one when the server ends the stream. (TanStack Query's `'replace'`.)
    case replaceAtEnd
}
