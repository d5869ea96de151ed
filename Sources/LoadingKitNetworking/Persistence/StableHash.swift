/// A hash of a string that is the same in every process (Swift's `Hasher` is seeded
/// per process): two 64-bit FNV-1a hashes with different offsets, as 32 hex digits.
enum StableHash {
    static func hex(of text: String) -> String {
        var first: UInt64 = 0xcbf2_9ce4_8422_2325
        var second: UInt64 = 0x8422_2325_cbf2_9ce4
        for byte in text.utf8 {
            first = (first ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            second = (second ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        return hex(first) + hex(second)
    }

    /// The 64-bit FNV-1a hash of `bytes`.
    static func checksum(of bytes: UnsafeRawBufferPointer.SubSequence) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        return hash
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
