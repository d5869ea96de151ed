/// What a live resource's connection is doing: what a screen shows beside the stream's
/// content.
///
/// ```swift
/// switch state {
/// case .connecting: "connecting…"
/// case .connected: "live"
/// case .reconnecting(let attempt): "reconnecting in \(attempt.delay) (\(attempt.reason))"
/// case .stopped(let reason): "stopped: \(reason)"
/// }
/// ```
public enum LiveConnectionState: Sendable, Equatable, CustomStringConvertible {
    /// The request is sent; no response yet.
    case connecting
    /// The response came and the body flows.
    case connected
    /// The connection ended; the next is made after a wait.
    case reconnecting(LiveReconnectionAttempt)
    /// The stream stopped for good and the connection is closed; following it again
    /// makes a new one.
    case stopped(LiveStop)

    /// Whether the body flows.
    public var isConnected: Bool { self == .connected }

    /// The state in a few words, without header or body text.
    public var description: String {
        switch self {
        case .connecting: "connecting"
        case .connected: "connected"
        case .reconnecting(let attempt): "reconnecting in \(attempt.delay) after \(attempt.reason)"
        case .stopped(let stop): "stopped: \(stop)"
        }
    }
}

/// A reconnection under way: why the connection ended, and when the next is made.
public struct LiveReconnectionAttempt: Sendable, Equatable {
    /// The number of the connection to come: 2 for the first reconnection.
    public let number: Int
    /// Why the connection before ended.
    public let reason: LiveInterruption
    /// The wait before the next connection.
    public let delay: Duration
    /// When the next connection is made, on `ContinuousClock`'s timeline (the
    /// webservice's clock's instants when it is a `ManualClock`).
    public let date: ContinuousClock.Instant
    /// The event ID the next connection resumes after, sent as `Last-Event-ID`; empty
    /// for none.
    public let lastEventID: String

    /// Creates a reconnection.
    ///
    /// - Parameters:
    ///   - number: The number of the connection to come.
    ///   - reason: Why the connection before ended.
    ///   - delay: The wait before the next connection.
    ///   - date: When the next connection is made.
    ///   - lastEventID: The event ID it resumes after.
    public init(
        number: Int,
        reason: LiveInterruption,
        delay: Duration,
        date: ContinuousClock.Instant,
        lastEventID: String
    ) {
        self.number = number
        self.reason = reason
        self.delay = delay
        self.date = date
        self.lastEventID = lastEventID
    }
}

/// Why a live connection ended and is made again.
public enum LiveInterruption: Sendable, Equatable, CustomStringConvertible {
    /// The server ended the body.
    case ended
    /// The connection could not be made or was lost, or the server answered a status
    /// worth trying again (`429`, `503`, another `5xx`).
    case failed(LiveStreamError)
    /// No byte came for the idle timeout.
    case idle

    /// Why, in a few words.
    public var description: String {
        switch self {
        case .ended: "the server ended the stream"
        case .failed(let error): error.description
        case .idle: "the connection was silent too long"
        }
    }
}

/// Why a live stream stopped for good.
public enum LiveStop: Sendable, Equatable, CustomStringConvertible {
    /// The server answered `204 No Content`: there is nothing to follow.
    case noContent
    /// The stream failed in a way a reconnection would not mend: a status such as
    /// `404`, a response that is not the stream's type, a line over the limit, a
    /// credential refused.
    case failed(LiveStreamError)

    /// Why, in a few words.
    public var description: String {
        switch self {
        case .noContent: "the server has nothing to stream (204)"
        case .failed(let error): error.description
        }
    }
}
