import Foundation

/// The layout of one file of a ``DiskResourceStore``: a magic number, the format
/// version, the length of a JSON header, the header — key, validators, date, body
/// length and checksum — and the body. A file that does not read back whole, with its
/// own key, is refused.
enum PersistedFile {
    /// The format this version writes and reads.
    static let formatVersion: UInt8 = 1
    private static let magic = Data("LKRS".utf8)

    private struct Header: Codable {
        let key: String
        let entityTag: String?
        let lastModified: String?
        let storedAt: Double
        let bodyLength: Int
        let checksum: UInt64
    }

    /// The file's bytes for `record` under `key`.
    static func encode(_ record: PersistedRecord, key: String) throws -> Data {
        let header = Header(
            key: key,
            entityTag: record.entityTag,
            lastModified: record.lastModified,
            storedAt: record.storedAt.timeIntervalSince1970,
            bodyLength: record.body.count,
            checksum: StableHash.checksum(of: record.body)
        )
        let headerData = try JSONEncoder().encode(header)
        var data = magic
        data.append(formatVersion)
        withUnsafeBytes(of: UInt32(headerData.count).bigEndian) { data.append(contentsOf: $0) }
        data.append(headerData)
        data.append(record.body)
        return data
    }

    /// The record in `data`, when it is a whole file of this format for `key`.
    static func decode(_ data: Data, key: String) -> PersistedRecord? {
        let prefix = magic.count + 1 + 4
        guard data.count >= prefix, data.prefix(magic.count) == magic,
            data[data.startIndex + magic.count] == formatVersion
        else { return nil }
        let lengthStart = data.startIndex + magic.count + 1
        let length = data[lengthStart..<lengthStart + 4].reduce(0) { $0 << 8 | Int($1) }
        guard length <= data.count - prefix else { return nil }
        let headerStart = data.startIndex + prefix
        let bodyStart = headerStart + length
        guard
            let header = try? JSONDecoder().decode(
                Header.self,
                from: data[headerStart..<bodyStart]
            ),
            header.key == key, header.bodyLength == data.endIndex - bodyStart
        else { return nil }
        let body = Data(data[bodyStart...])
        guard StableHash.checksum(of: body) == header.checksum else { return nil }
        return PersistedRecord(
            body: body,
            entityTag: header.entityTag,
            lastModified: header.lastModified,
            storedAt: Date(timeIntervalSince1970: header.storedAt)
        )
    }
}
