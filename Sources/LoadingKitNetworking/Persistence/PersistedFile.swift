import Foundation

/// The layout of one file of a ``DiskResourceStore``: a magic number, the format
/// version, a header of fixed-order fields — key, validators, date, freshness lifetime,
/// body length and checksum — and the body. Strings are a 32-bit length and UTF-8 (an absent one is
/// length `0xFFFF_FFFF`), numbers 64-bit, all big-endian. A file that does not read
/// back whole, with its own key, is refused.
enum PersistedFile {
    /// The format this version writes and reads: 3 since it keeps the freshness
    /// lifetime.
    static let formatVersion: UInt8 = 3
    /// The lifetime field of a record whose response said none.
    private static let noLifetime = UInt64.max
    private static let magic: [UInt8] = Array("LKRS".utf8)

    /// The file's bytes for `record` under `key`.
    static func encode(_ record: PersistedRecord, key: String) -> Data {
        var writer = BinaryWriter(magic: magic, version: formatVersion)
        writer.append(key)
        writer.append(record.entityTag)
        writer.append(record.lastModified)
        writer.append(record.storedAt.timeIntervalSince1970.bitPattern)
        writer.append(
            record.freshnessLifetime.map { lifetime in
                let milliseconds = lifetime / .milliseconds(1)
                return milliseconds.isFinite
                    ? UInt64(min(max(0, milliseconds), Double(noLifetime - 1))) : 0
            } ?? noLifetime
        )
        writer.append(UInt64(record.body.count))
        writer.append(record.body.withUnsafeBytes { StableHash.checksum(of: $0[...]) })
        var data = writer.data
        data.append(record.body)
        return data
    }

    /// Whether the file at `path` begins as the files of every format version do: one
    /// the store wrote, whole or not, and not a file of someone else's that shares the
    /// directory.
    static func isStoreFile(atPath path: String) -> Bool {
        DiskFile.starts(with: magic, atPath: path)
    }

    /// The record in `data`, when it is a whole file of this format for `key`.
    static func decode(_ data: Data, key: String) -> PersistedRecord? {
        data.withUnsafeBytes { bytes -> PersistedRecord? in
            var reader = BinaryReader(bytes: bytes)
            guard reader.startsWith(magic: magic, version: formatVersion),
                let storedKey = reader.string(), storedKey == key,
                let entityTag = reader.optionalString(),
                let lastModified = reader.optionalString(),
                let storedAt = reader.integer(UInt64.self),
                let lifetime = reader.integer(UInt64.self),
                let bodyLength = reader.integer(UInt64.self),
                let checksum = reader.integer(UInt64.self),
                bodyLength == reader.remaining, let body = reader.take(Int(bodyLength)),
                StableHash.checksum(of: body) == checksum
            else { return nil }
            return PersistedRecord(
                body: Data(body),
                entityTag: entityTag,
                lastModified: lastModified,
                storedAt: Date(timeIntervalSince1970: Double(bitPattern: storedAt)),
                freshnessLifetime: lifetime == noLifetime
                    ? nil : .milliseconds(Int64(clamping: lifetime))
            )
        }
    }
}
