import Foundation

/// A write the outbox holds, ready to be sent again: its record and the mutation it
/// sends, with the optimistic changes it keeps shown.
struct KeptWrite: Sendable {
    let record: OutboxRecord
    /// Whether the write changes the value of an identity.
    let changesValue: @Sendable (ResourceIdentity) -> Bool
    /// Sends the write through the webservice once, in its turn, and settles it.
    let send: @Sendable (Webservice) async -> KeptOutcome
}

/// How one sending of a kept write ended.
enum KeptOutcome: Sendable {
    /// The server answered it: it leaves the outbox, its answer stored.
    case confirmed
    /// The server refused it with a `4xx`: it leaves the outbox, its changes taken back.
    case rejected
    /// The app cancelled it: it leaves the outbox, its changes taken back.
    case cancelled
    /// No server answered: it waits, as do the writes after it to its origin.
    case unreachable
    /// The server answered with a server error, or it was not sent: it waits, as do
    /// the writes after it in its scope.
    case waits

    /// How a sending that ended with `result` ended; `isReplay` when the outbox sent
    /// it, which no app cancels.
    init<A>(_ result: Result<A, WebserviceError>, isReplay: Bool) {
        switch result {
        case .success:
            self = .confirmed
        case .failure(.transport):
            self = .unreachable
        case .failure(.badStatus(let failure)):
            let isTransient = failure.statusCode >= 500 || [408, 429].contains(failure.statusCode)
            self = isTransient ? .waits : .rejected
        case .failure(.cancelled):
            self = isReplay ? .waits : .cancelled
        case .failure(.decoding), .failure(.responseTooLarge):
            // The server answered with an accepted status: it has the write.
            self = .confirmed
        case .failure(.notModifiedWithoutCache), .failure(.queued), .failure(.outboxRefused):
            self = .rejected
        case .failure(.authentication):
            // Not sent for want of its account's credential, or answered after the
            // account changed, or its renewed credential refused: it waits for its
            // account.
            self = .waits
        }
    }

    /// Whether the write leaves the outbox.
    var isFinal: Bool {
        switch self {
        case .confirmed, .rejected, .cancelled: true
        case .unreachable, .waits: false
        }
    }
}

extension Result where Failure == WebserviceError {
    /// Whether a request that ended with this outcome may have reached the server:
    /// anything but a connection that was never made.
    var mayHaveReachedServer: Bool {
        guard case .failure(.transport(let failure)) = self else { return true }
        let neverConnected: Set<URLError.Code> = [
            .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed, .notConnectedToInternet,
        ]
        return failure.code.map { !neverConnected.contains($0) } ?? true
    }
}
