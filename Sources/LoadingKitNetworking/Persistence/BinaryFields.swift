import Foundation

/// Writes the fields of a file the kit keeps on disk, in order: strings and byte runs
/// are a 32-bit length and the bytes (an absent one is length `0xFFFF_FFFF`), numbers
/// 64-bit, all big-endian.
struct BinaryWriter {
    /// The bytes written so far.
    private(set) var data: Data

    /// A writer starting with `magic` and `version`.
    init(magic: [UInt8], version: UInt8) {
        data = Data(magic)
        data.append(version)
    }

    mutating func append(_ number: some FixedWidthInteger) {
        withUnsafeBytes(of: number.bigEndian) { data.append(contentsOf: $0) }
    }

    mutating func append(_ string: String?) {
        append(string.map { Data($0.utf8) })
    }

    mutating func append(_ bytes: Data?) {
        guard let bytes else {
            append(BinaryReader.absent)
            return
        }
        append(UInt32(bytes.count))
        data.append(bytes)
    }

    /// Appends the checksum of every byte written so far.
    mutating func appendChecksum() {
        let checksum = data.withUnsafeBytes { StableHash.checksum(of: $0[...]) }
        append(checksum)
    }
}

/// Reads the fields ``BinaryWriter`` wrote, in order; every read is `nil` past the end.
struct BinaryReader {
    /// The length that stands for an absent string or byte run.
    static let absent = UInt32.max

    let bytes: UnsafeRawBufferPointer
    private(set) var offset = 0

    init(bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    var remaining: UInt64 { UInt64(bytes.count - offset) }

    /// Whether the bytes start with `magic` and `version`; reads past them.
    mutating func startsWith(magic: [UInt8], version: UInt8) -> Bool {
        take(magic.count).map(Array.init) == magic && take(1)?.first == version
    }

    mutating func take(_ count: Int) -> UnsafeRawBufferPointer.SubSequence? {
        guard count >= 0, count <= bytes.count - offset else { return nil }
        defer { offset += count }
        return bytes[offset..<offset + count]
    }

    /// A big-endian integer of `type`.
    mutating func integer<Integer: FixedWidthInteger>(_ type: Integer.Type) -> Integer? {
        take(MemoryLayout<Integer>.size).map { $0.reduce(0) { $0 << 8 | Integer($1) } }
    }

    /// A byte run, or `.some(nil)` for an absent one.
    mutating func optionalBytes() -> Data?? {
        guard let length = integer(UInt32.self) else { return nil }
        if length == Self.absent {
            return .some(nil)
        }
        return take(Int(length)).map { Data($0) }
    }

    /// A string, or `.some(nil)` for an absent one.
    mutating func optionalString() -> String?? {
        optionalBytes().map { $0.map { String(decoding: $0, as: UTF8.self) } }
    }

    mutating func string() -> String? {
        optionalString() ?? nil
    }

    /// Whether the checksum that follows matches every byte before it, and nothing
    /// follows it.
    mutating func endsWithChecksum() -> Bool {
        let checked = bytes[0..<offset]
        guard let checksum = integer(UInt64.self), remaining == 0 else { return false }
        return StableHash.checksum(of: checked) == checksum
    }
}
