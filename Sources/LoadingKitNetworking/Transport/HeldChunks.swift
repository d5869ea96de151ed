import Foundation

/// The chunks of a body its reader has not taken yet: in memory up to a limit, the rest
/// in temporary files, up to a limit too. FoundationNetworking cannot pause a transfer,
/// so what the server sends meanwhile has to be kept somewhere.
///
/// ```swift
/// var held = HeldChunks(memoryLimit: 256 << 10)
/// try held.append(chunk)  // while the reader holds; throws past the file limit
/// let next = try held.take()  // the chunks in memory, else the next part of a file
/// ```
///
/// Chunks come out in the order they went in. The files are segments of
/// ``segmentSize`` bytes, each closed — its disk space freed — once read to its end.
/// Each is made readable by its owner only, is not inherited by a child process, and
/// has no name once open, so what it holds goes with the handle, even when the process
/// is killed. Where the temporary directory is a memory file system (`tmpfs`), the
/// files cost memory after all.
package struct HeldChunks {
    /// The most bytes kept in memory before chunks go to a file: 256 KiB.
    package static let defaultMemoryLimit = 256 << 10
    /// The most bytes kept in files; past it ``append(_:)`` throws: 64 MiB.
    package static let defaultFileLimit = 64 << 20
    /// The size of each file: 4 MiB.
    package static let segmentSize = 4 << 20
    /// The most bytes read back from a file at once.
    package static let readLimit = 64 << 10

    private let memoryLimit: Int
    private let fileLimit: Int
    private let directory: URL
    private var inMemory: [Data] = []
    private var bytesInMemory = 0
    /// The files, oldest first: read from the first, written at the end of the last.
    private var files: [SpillFile] = []
    private var bytesInFiles = 0

    /// No chunk kept yet.
    ///
    /// - Parameters:
    ///   - memoryLimit: The most bytes kept in memory.
    ///   - fileLimit: The most bytes kept in files.
    ///   - directory: Where the files are made.
    package init(
        memoryLimit: Int = Self.defaultMemoryLimit,
        fileLimit: Int = Self.defaultFileLimit,
        directory: URL = FileManager.default.temporaryDirectory
    ) {
        self.memoryLimit = memoryLimit
        self.fileLimit = fileLimit
        self.directory = directory
    }

    /// Whether nothing is kept.
    package var isEmpty: Bool {
        inMemory.isEmpty && bytesInFiles == 0
    }

    /// Whether some of what is kept is in a file: what a test checks.
    package var isSpilled: Bool {
        bytesInFiles > 0
    }

    /// How many files are open: what a test checks.
    package var fileCount: Int {
        files.count
    }

    /// Whether every open file is readable by its owner only and closed in a child
    /// process: what a test checks.
    package var filesArePrivate: Bool {
        files.allSatisfy(\.isPrivate)
    }

    /// Keeps `chunk` after the others: in memory while it fits and nothing waits in a
    /// file, else at the end of the last file.
    ///
    /// - Parameter chunk: The chunk.
    /// - Throws: ``WebserviceError/responseTooLarge(_:)`` when the files would hold more
    ///   than their limit, else what making or writing a file threw.
    package mutating func append(_ chunk: Data) throws {
        if bytesInFiles == 0, bytesInMemory + chunk.count <= memoryLimit {
            inMemory.append(chunk)
            bytesInMemory += chunk.count
            return
        }
        guard bytesInFiles + chunk.count <= fileLimit else {
            throw WebserviceError.responseTooLarge(.init(limit: memoryLimit + fileLimit))
        }
        if files.last.map({ $0.size >= Self.segmentSize }) != false {
            files.append(try SpillFile(in: directory))
        }
        do {
            try files[files.count - 1].write(chunk)
        } catch {
            // A file made for this chunk and left empty is no part of what is kept.
            if files.last?.size == 0 {
                files.removeLast()
            }
            throw error
        }
        bytesInFiles += chunk.count
    }

    /// Takes the first of what is kept: every chunk in memory, else up to
    /// ``readLimit`` bytes of the first file, which is closed once read to its end.
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
        guard bytesInFiles > 0, let file = files.first else { return [] }
        let data = try file.read(upTo: Self.readLimit)
        bytesInFiles -= data.count
        if file.isReadToEnd {
            files.removeFirst()
        }
        return [data]
    }

    /// Puts `chunks`, taken and not used, back before everything kept.
    ///
    /// - Parameter chunks: The chunks, in order.
    package mutating func putBack(_ chunks: ArraySlice<Data>) {
        inMemory.insert(contentsOf: chunks, at: 0)
        bytesInMemory += chunks.reduce(0) { $0 + $1.count }
    }

    /// Drops everything kept, and closes the files.
    package mutating func removeAll() {
        inMemory = []
        bytesInMemory = 0
        files = []
        bytesInFiles = 0
    }
}
