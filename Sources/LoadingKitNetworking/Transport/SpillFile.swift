import Foundation

/// A temporary file with no name, written at its end and read from its start: one
/// segment of the chunks ``HeldChunks`` keeps.
///
/// ```swift
/// let file = try SpillFile(in: FileManager.default.temporaryDirectory)
/// try file.write(chunk)
/// let data = try file.read(upTo: 64 << 10)
/// ```
///
/// Created readable by its owner only, closed in a child process, and its name removed
/// at once: no other process can open it, and its space is freed when it is released.
final class SpillFile {
    private let handle: FileHandle
    private var readOffset: UInt64 = 0
    private var writeOffset: UInt64 = 0

    /// Makes the file in `directory`, opens it and removes its name.
    ///
    /// - Parameter directory: Where the file is made.
    /// - Throws: The `POSIXError` of the file that could not be made (`ENOSPC`,
    ///   `EMFILE`, `EACCES`…), or whose name could not be removed.
    init(in directory: URL) throws {
        let path = directory.appendingPathComponent("loadingkit-held-\(UUID().uuidString)").path
        let descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        // A name left would outlive the process with the body's bytes.
        guard unlink(path) == 0 else {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
    }

    /// The bytes written so far.
    var size: Int {
        Int(writeOffset)
    }

    /// Whether everything written was read.
    var isReadToEnd: Bool {
        readOffset == writeOffset
    }

    /// Whether the file is readable by its owner only and closed in a child process.
    var isPrivate: Bool {
        var status = stat()
        guard fstat(handle.fileDescriptor, &status) == 0 else { return false }
        let flags = fcntl(handle.fileDescriptor, F_GETFD)
        return status.st_mode & 0o077 == 0 && flags >= 0 && flags & FD_CLOEXEC != 0
    }

    /// Writes `chunk` at the file's end.
    ///
    /// - Parameter chunk: The bytes.
    /// - Throws: What writing threw: a full disk.
    func write(_ chunk: Data) throws {
        try handle.seek(toOffset: writeOffset)
        try handle.write(contentsOf: chunk)
        writeOffset += UInt64(chunk.count)
    }

    /// Reads the next bytes not read yet.
    ///
    /// - Parameter count: The most bytes read.
    /// - Returns: At least one byte, at most `count`.
    /// - Throws: What reading threw; `CocoaError(.fileReadCorruptFile)` when the file
    ///   holds less than was written.
    func read(upTo count: Int) throws -> Data {
        try handle.seek(toOffset: readOffset)
        let data = try handle.read(upToCount: min(count, Int(writeOffset - readOffset))) ?? Data()
        guard !data.isEmpty else { throw CocoaError(.fileReadCorruptFile) }
        readOffset += UInt64(data.count)
        return data
    }
}
