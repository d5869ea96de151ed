import Foundation

/// The chunks of a body its reader has not taken yet: in memory up to a limit, the rest
/// in a temporary file, so that a reader far behind a fast server costs disk, not
/// memory. FoundationNetworking cannot pause a transfer, so what the server sends
/// meanwhile has to be kept somewhere.
///
/// ```swift
/// var held = HeldChunks(memoryLimit: 1 << 20)
/// try held.append(chunk)  // while the reader holds
/// let next = try held.take()  // the chunks in memory, else the next part of the file
/// ```
///
/// Chunks come out in the order they went in. The file is made readable by its owner
/// only and removed as soon as it is open, so what it holds goes with the handle, even
/// when the process is killed.
package struct HeldChunks {
    /// The most bytes kept in memory before chunks go to the file: 256 KiB.
    package static let defaultMemoryLimit = 256 << 10
    /// The most bytes read back from the file at once.
    package static let readLimit = 64 << 10

    private let memoryLimit: Int
    private let directory: URL
    private var inMemory: [Data] = []
    private var bytesInMemory = 0
    private var file: SpillFile?

    /// No chunk kept yet.
    ///
    /// - Parameters:
    ///   - memoryLimit: The most bytes kept in memory.
    ///   - directory: Where the file is made.
    package init(
        memoryLimit: Int = Self.defaultMemoryLimit,
        directory: URL = FileManager.default.temporaryDirectory
    ) {
        self.memoryLimit = memoryLimit
        self.directory = directory
    }

    /// Whether nothing is kept.
    package var isEmpty: Bool {
        inMemory.isEmpty && file?.isEmpty != false
    }

    /// Whether some of what is kept is in the file: what a test checks.
    package var isSpilled: Bool {
        file?.isEmpty == false
    }

    /// Keeps `chunk` after the others: in memory while it fits and nothing waits in the
    /// file, else at the file's end.
    ///
    /// - Parameter chunk: The chunk.
    /// - Throws: What writing the file threw.
    package mutating func append(_ chunk: Data) throws {
        if file?.isEmpty != false, bytesInMemory + chunk.count <= memoryLimit {
            inMemory.append(chunk)
            bytesInMemory += chunk.count
            return
        }
        if file == nil {
            file = try SpillFile(in: directory)
        }
        try file?.write(chunk)
    }

    /// Takes the first of what is kept: every chunk in memory, else up to
    /// ``readLimit`` bytes of the file.
    ///
    /// - Returns: The chunks, in order; empty when nothing is kept.
    /// - Throws: What reading the file threw.
    package mutating func take() throws -> [Data] {
        guard inMemory.isEmpty else {
            defer {
                inMemory = []
                bytesInMemory = 0
            }
            return inMemory
        }
        guard let file, !file.isEmpty else { return [] }
        return [try file.read(upTo: Self.readLimit)]
    }

    /// Puts `chunks`, taken and not used, back before everything kept.
    ///
    /// - Parameter chunks: The chunks, in order.
    package mutating func putBack(_ chunks: ArraySlice<Data>) {
        inMemory.insert(contentsOf: chunks, at: 0)
        bytesInMemory += chunks.reduce(0) { $0 + $1.count }
    }

    /// Drops everything kept, and the file.
    package mutating func removeAll() {
        inMemory = []
        bytesInMemory = 0
        file = nil
    }
}

/// A temporary file written at its end and read from its start, emptied each time it
/// has been read to its end.
private final class SpillFile {
    private let handle: FileHandle
    private var readOffset: UInt64 = 0
    private var writeOffset: UInt64 = 0

    /// Makes the file in `directory`, opens it and removes its name.
    init(in directory: URL) throws {
        let url = directory.appendingPathComponent("loadingkit-held-\(UUID().uuidString)")
        guard
            FileManager.default.createFile(
                atPath: url.path,
                contents: nil,
                attributes: [.posixPermissions: 0o600]
            )
        else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSURLErrorKey: url])
        }
        defer { try? FileManager.default.removeItem(at: url) }
        handle = try FileHandle(forUpdating: url)
    }

    deinit {
        try? handle.close()
    }

    var isEmpty: Bool {
        readOffset == writeOffset
    }

    func write(_ chunk: Data) throws {
        try handle.seek(toOffset: writeOffset)
        try handle.write(contentsOf: chunk)
        writeOffset += UInt64(chunk.count)
    }

    func read(upTo count: Int) throws -> Data {
        try handle.seek(toOffset: readOffset)
        let data = try handle.read(upToCount: min(count, Int(writeOffset - readOffset))) ?? Data()
        guard !data.isEmpty else { throw CocoaError(.fileReadCorruptFile) }
        readOffset += UInt64(data.count)
        if isEmpty {
            try handle.truncate(atOffset: 0)
            readOffset = 0
            writeOffset = 0
        }
        return data
    }
}
