import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One write as the outbox keeps it on disk: what is needed to send it again after a
/// relaunch — never a credential.
struct OutboxRecord: Sendable {

    /// The write's place in the order writes were kept.
    let sequence: UInt64
    /// Sent as `Idempotency-Key` with every attempt.
    let idempotencyKey: String
    /// The scope whose writes are sent one after another, if any.
    let scope: String?
    /// The kind that rebuilds the mutation after a relaunch, with its input.
    let kind: String?
    let input: Data?
    /// The account signed in when the write was kept: it is sent only with that
    /// account's credential.
    let account: String?
    let method: String
    let url: URL
    /// The header fields of the request, credentials left out, in order.
    let headers: [(name: String, value: String)]
    let body: Data?

    /// The request to send: the one recorded, with the fields `names` calls
    /// credentials taken from `credentials` (the request the app builds now), and the
    /// idempotency key.
    func request(
        credentialsFrom credentials: URLRequest?,
        names: CredentialNames
    ) -> URLRequest {
        var request = URLRequest(url: url)
        request.httpMethod = method
        for (name, value) in headers {
            request.setValue(value, forHTTPHeaderField: name)
        }
        for (name, value) in credentials?.allHTTPHeaderFields ?? [:]
        where names.contains(name) {
            request.setValue(value, forHTTPHeaderField: name)
        }
        request.setValue(idempotencyKey, forHTTPHeaderField: "Idempotency-Key")
        request.httpBody = body
        if let timeout = credentials?.timeoutInterval {
            request.timeoutInterval = timeout
        }
        return request
    }

    /// What the app is told of the write.
    var queuedWrite: QueuedWrite {
        QueuedWrite(
            sequence: sequence,
            idempotencyKey: idempotencyKey,
            method: HTTPMethod(rawValue: method),
            url: url,
            scope: scope,
            kind: kind
        )
    }
}

extension OutboxRecord {
    /// The record of `request`, kept as write `sequence` with `idempotencyKey`, the
    /// header fields `credentials` names left out — they are never written to disk;
    /// `nil` when the request has no URL.
    init?(
        sequence: UInt64,
        idempotencyKey: String,
        scope: String?,
        kind: String?,
        input: Data?,
        account: String?,
        request: URLRequest,
        credentials: CredentialNames
    ) {
        guard let url = request.url else { return nil }
        self.init(
            sequence: sequence,
            idempotencyKey: idempotencyKey,
            scope: scope,
            kind: kind,
            input: input,
            account: account,
            method: request.httpMethod ?? "GET",
            url: url,
            headers: (request.allHTTPHeaderFields ?? [:])
                .filter { !credentials.contains($0.key) }
                .sorted { $0.key < $1.key }
                .map { (name: $0.key, value: $0.value) },
            body: request.httpBody
        )
    }
}

// MARK: - The file

extension OutboxRecord {
    /// The format this version writes and reads.
    static let formatVersion: UInt8 = 2
    private static let magic: [UInt8] = Array("LKOB".utf8)

    /// The file's bytes: magic, version, the fields in order, and a checksum of them all.
    var fileContents: Data {
        var writer = BinaryWriter(magic: Self.magic, version: Self.formatVersion)
        writer.append(sequence)
        writer.append(idempotencyKey)
        writer.append(scope)
        writer.append(kind)
        writer.append(input)
        writer.append(account)
        writer.append(method)
        writer.append(url.absoluteString)
        writer.append(UInt32(headers.count))
        for (name, value) in headers {
            writer.append(name)
            writer.append(value)
        }
        writer.append(body)
        writer.appendChecksum()
        return writer.data
    }

    /// The record in `data`, when it is a whole file of this format.
    init?(fileContents data: Data) {
        guard
            let record = data.withUnsafeBytes({ bytes -> OutboxRecord? in
                var reader = BinaryReader(bytes: bytes)
                guard reader.startsWith(magic: Self.magic, version: Self.formatVersion),
                    let sequence = reader.integer(UInt64.self),
                    let key = reader.string(),
                    let scope = reader.optionalString(),
                    let kind = reader.optionalString(),
                    let input = reader.optionalBytes(),
                    let account = reader.optionalString(),
                    let method = reader.string(),
                    let url = reader.string().flatMap(URL.init(string:)),
                    let count = reader.integer(UInt32.self), UInt64(count) <= reader.remaining
                else { return nil }
                var headers: [(name: String, value: String)] = []
                for _ in 0..<count {
                    guard let name = reader.string(), let value = reader.string() else {
                        return nil
                    }
                    headers.append((name, value))
                }
                guard let body = reader.optionalBytes(), reader.endsWithChecksum() else {
                    return nil
                }
                return OutboxRecord(
                    sequence: sequence,
                    idempotencyKey: key,
                    scope: scope,
                    kind: kind,
                    input: input,
                    account: account,
                    method: method,
                    url: url,
                    headers: headers,
                    body: body
                )
            })
        else { return nil }
        self = record
    }

    /// The name of the record's file: its sequence, so that names sort in order.
    var fileName: String { Self.fileName(of: sequence) }

    static func fileName(of sequence: UInt64) -> String {
        let digits = String(sequence, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits + ".lkob"
    }
}
