/// Why the ``Outbox`` did not take a write: the write is not sent, and its optimistic
/// changes are taken back.
///
/// ```swift
/// do {
///     try await webservice.send(rename)
/// } catch .outboxRefused(.full(let writes, _)) {
///     show("\(writes) changes are waiting to be sent; connect to save more")
/// }
/// ```
public enum OutboxRefusal: Error, Sendable, Equatable, Hashable {
    /// The outbox holds as many writes, or as many bytes, as it may.
    case full(maximumWrites: Int, maximumSize: Int)
    /// The write could not be written to the outbox's directory: a full disk, say.
    case cannotWrite
    /// The mutation's input for rebuilding it after a relaunch did not encode.
    case inputNotEncodable
    /// The webservice has no ``Webservice/Configuration/outbox``.
    case noOutbox
}

extension OutboxRefusal: CustomStringConvertible {
    /// What was refused, in one sentence; never a body or a header.
    public var description: String {
        switch self {
        case .full(let writes, let size):
            "the outbox is full (at most \(writes) writes and \(size) bytes)"
        case .cannotWrite:
            "the outbox could not write the change to disk"
        case .inputNotEncodable:
            "the mutation's input could not be encoded for the outbox"
        case .noOutbox:
            "the webservice has no outbox to keep the change in"
        }
    }
}
