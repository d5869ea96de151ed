import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The files the kit keeps — stored values and kept writes — read and written whole: a
/// read looks at what the file is before reading a byte of it, and a write goes to a
/// temporary file beside it, named after the writing process, renamed over it once
/// written, so that a reader finds the old file or the new one, never a part.
enum DiskFile {
    /// What a read found.
    enum Reading {
        /// No file.
        case missing
        /// A file that is not one the kit wrote — not a regular file, or larger than
        /// the limit — which was not read; the reason names its size, never its
        /// contents.
        case refused(reason: String)
        /// The file's bytes.
        case contents(Data)
    }

    /// Reads the file at `path` when it is a regular file of at most `limit` bytes.
    static func contents(atPath path: String, limit: Int) -> Reading {
        // Non-blocking: a FIFO put in its place is refused, not waited on.
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            let failure = errno
            return [ENOENT, ENOTDIR].contains(failure)
                ? .missing : .refused(reason: "errno \(failure)")
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return .refused(reason: "errno \(errno)") }
        guard status.st_mode & S_IFMT == S_IFREG else { return .refused(reason: "not a file") }
        let size = Int(status.st_size)
        guard size <= limit else { return .refused(reason: "\(size) bytes, over \(limit)") }
        var data = Data(count: size)
        let count = data.withUnsafeMutableBytes { buffer in
            var total = 0
            while total < size {
                let read = read(descriptor, buffer.baseAddress! + total, size - total)
                guard read > 0 else { break }
                total += read
            }
            return total
        }
        guard count == size else { return .refused(reason: "shorter than its size") }
        return .contents(data)
    }

    /// Writes `contents` as the file `name` in `directory`, creating the directory when
    /// needed, through a temporary file renamed over it — flushed to the disk first
    /// when `synchronizes`. Returns the `errno` of a failure, `nil` on success.
    static func replace(
        named name: String,
        in directory: URL,
        with contents: Data,
        synchronizes: Bool
    ) -> Int32? {
        let path = directory.appending(path: name).path(percentEncoded: false)
        let temporary = directory.appending(path: temporaryName(for: name))
            .path(percentEncoded: false)
        var descriptor = open(temporary, O_CREAT | O_WRONLY | O_TRUNC | O_CLOEXEC, 0o600)
        if descriptor < 0, errno == ENOENT {
            // The first write, or the directory was removed: create it and try again.
            try? FileManager.default.createDirectory(
                at: directory,
                withIntermediateDirectories: true
            )
            descriptor = open(temporary, O_CREAT | O_WRONLY | O_TRUNC | O_CLOEXEC, 0o600)
        }
        guard descriptor >= 0 else { return errno }
        let written = contents.withUnsafeBytes { bytes in
            bytes.isEmpty ? 0 : write(descriptor, bytes.baseAddress, bytes.count)
        }
        let synchronized = !synchronizes || fsync(descriptor) == 0
        close(descriptor)
        guard written == contents.count, synchronized, rename(temporary, path) == 0 else {
            let failure = errno
            unlink(temporary)
            return failure
        }
        return nil
    }

    /// The temporary file a write of `name` goes to first: hidden, and named after the
    /// writing process, so that two processes never write into one.
    static func temporaryName(for name: String) -> String {
        ".\(name).\(getpid()).tmp"
    }

    /// Whether the file `name` is a temporary file a write left: one whose process is
    /// gone, or which is older than `age` — a write takes far less.
    static func isLeftover(_ name: String, in directory: URL, olderThan age: TimeInterval) -> Bool {
        guard name.hasPrefix("."), name.hasSuffix(".tmp") else { return false }
        let parts = name.split(separator: ".")
        if parts.count >= 3, let process = Int32(parts[parts.count - 2]), process > 0,
            kill(process, 0) != 0, errno == ESRCH
        {
            return true
        }
        let path = directory.appending(path: name).path(percentEncoded: false)
        let modified = (try? FileManager.default.attributesOfItem(atPath: path))?[
            .modificationDate
        ]
        return (modified as? Date).map { -$0.timeIntervalSinceNow > age } ?? true
    }
}
