import Foundation

/// A write the ``Outbox`` keeps until the server confirms or rejects it: sent as soon
/// as its server is reachable again, in order within its scope, with its idempotency
/// key. Its optimistic changes stay shown meanwhile.
///
/// ```swift
/// let saving = screen.startSending(rename)
/// await saving.finish()
/// if case .queued(let write) = saving.outcome {
///     status = "Saved on this device; sent when the server is back (\(write.method.rawValue))"
/// }
/// ```
public struct QueuedWrite: Sendable, Equatable, Hashable {
    /// The write's place in the order writes were kept: replays go in this order.
    public let sequence: UInt64
    /// The `Idempotency-Key` sent with every attempt.
    public let idempotencyKey: String
    /// The method of the request.
    public let method: HTTPMethod
    /// The URL of the request, in full: log it redacted.
    public let url: URL
    /// The scope whose writes are sent one after another, if any.
    public let scope: String?
    /// The kind that rebuilds the mutation after a relaunch, if any.
    public let kind: String?

    /// Creates the description of a queued write.
    ///
    /// - Parameters:
    ///   - sequence: The write's place in the order writes were kept.
    ///   - idempotencyKey: The `Idempotency-Key` sent with every attempt.
    ///   - method: The method of the request.
    ///   - url: The URL of the request.
    ///   - scope: The scope of the write, if any.
    ///   - kind: The kind that rebuilds the mutation, if any.
    public init(
        sequence: UInt64,
        idempotencyKey: String,
        method: HTTPMethod,
        url: URL,
        scope: String?,
        kind: String?
    ) {
        self.sequence = sequence
        self.idempotencyKey = idempotencyKey
        self.method = method
        self.url = url
        self.scope = scope
        self.kind = kind
    }
}
