import Foundation

/// The layout of one file of a ``DiskResourceStore``: a magic number, the format
/// version, a header of fixed-order fields — key, validators, date, body length and
/// checksum — and the body. Strings are a 32-bit length and UTF-8 (an absent one is
/// length `0xFFFF_FFFF`), numbers 64-bit, all big-endian. A file that does not read
/// back whole, with its own key, is refused.
enum PersistedFile {
    /// The format this version writes and reads: 2 since the header is binary.
    static let formatVersion: UInt8 = 2
    private static let magic: [UInt8] = Array("LKRS".utf8)
    private static let absent = UInt32.max

    /// The file's bytes for `record` under `key`.
    static func encode(_ record: PersistedRecord, key: String) -> Data {
        var data = Data(magic)
        data.append(formatVersion)
        append(key, to: &data)
        append(record.entityTag, to: &data)
        append(record.lastModified, to: &data)
        append(record.storedAt.timeIntervalSince1970.bitPattern, to: &data)
        append(UInt64(record.body.count), to: &data)
        append(record.body.withUnsafeBytes { StableHash.checksum(of: $0[...]) }, to: &data)
        data.append(record.body)
        return data
    }

    /// The record in `data`, when it is a whole file of this format for `key`.
    static func decode(_ data: Data, key: String) -> PersistedRecord? {
        data.withUnsafeBytes { bytes -> PersistedRecord? in
            var reader = Reader(bytes: bytes)
            guard reader.take(magic.count).map(Array.init) == magic,
                reader.take(1)?.first == formatVersion,
                let storedKey = reader.string(), storedKey == key,
                let entityTag = reader.optionalString(),
                let lastModified = reader.optionalString(),
                let storedAt = reader.integer(UInt64.self),
                let bodyLength = reader.integer(UInt64.self),
                let checksum = reader.integer(UInt64.self),
                bodyLength == reader.remaining, let body = reader.take(Int(bodyLength)),
                StableHash.checksum(of: body) == checksum
            else { return nil }
            return PersistedRecord(
                body: Data(body),
                entityTag: entityTag,
                lastModified: lastModified,
                storedAt: Date(timeIntervalSince1970: Double(bitPattern: storedAt))
            )
        }
    }

    private static func append(_ number: some FixedWidthInteger, to data: inout Data) {
        withUnsafeBytes(of: number.bigEndian) { data.append(contentsOf: $0) }
    }

    private static func append(_ string: String?, to data: inout Data) {
        guard let string else {
            append(absent, to: &data)
            return
        }
        let utf8 = Array(string.utf8)
        append(UInt32(utf8.count), to: &data)
        data.append(contentsOf: utf8)
    }

    /// Reads the fields of a file in order; every read is `nil` past its end.
    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        var offset = 0

        var remaining: UInt64 { UInt64(bytes.count - offset) }

        mutating func take(_ count: Int) -> UnsafeRawBufferPointer.SubSequence? {
            guard count >= 0, count <= bytes.count - offset else { return nil }
            defer { offset += count }
            return bytes[offset..<offset + count]
        }

        /// A big-endian integer of `type`.
        mutating func integer<Integer: FixedWidthInteger>(_ type: Integer.Type) -> Integer? {
            take(MemoryLayout<Integer>.size).map { $0.reduce(0) { $0 << 8 | Integer($1) } }
        }

        /// A string, or `.some(nil)` for an absent one.
        mutating func optionalString() -> String?? {
            guard let length = integer(UInt32.self) else {
                return nil
            }
            if length == absent {
                return .some(nil)
            }
            return take(Int(length)).map { String(decoding: $0, as: UTF8.self) }
        }

        mutating func string() -> String? {
            optionalString() ?? nil
        }
    }
}
