import Foundation
import Synchronization

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
        /// A file that could not be read now — no permission while the device is
        /// locked, no descriptor left, an I/O error: it is left as it is.
        case unavailable(reason: String)
        /// The file's bytes.
        case contents(Data)
    }

    /// Whether the file at `path` is a regular file that begins with `prefix`.
    static func starts(with prefix: [UInt8], atPath path: String) -> Bool {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            return false
        }
        var bytes = [UInt8](repeating: 0, count: prefix.count)
        let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, prefix.count) }
        return count == prefix.count && bytes == prefix
    }

    /// Reads the file at `path` when it is a regular file of at most `limit` bytes.
    static func contents(atPath path: String, limit: Int) -> Reading {
        // Non-blocking: a FIFO put in its place is refused, not waited on.
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            let failure = errno
            return [ENOENT, ENOTDIR].contains(failure)
                ? .missing : .unavailable(reason: "errno \(failure)")
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return .unavailable(reason: "errno \(errno)") }
        guard status.st_mode & S_IFMT == S_IFREG else { return .refused(reason: "not a file") }
        let size = Int(status.st_size)
        guard size <= limit else { return .refused(reason: "\(size) bytes, over \(limit)") }
        var data = Data(count: size)
        var failure: Int32 = 0
        let count = data.withUnsafeMutableBytes { buffer in
            var total = 0
            while total < size {
                let read = read(descriptor, buffer.baseAddress! + total, size - total)
                if read < 0, errno == EINTR { continue }
                guard read > 0 else {
                    failure = read < 0 ? errno : 0
                    break
                }
                total += read
            }
            return total
        }
        if failure != 0 {
            return .unavailable(reason: "errno \(failure)")
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
        let flags = O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC | O_NOFOLLOW
        var descriptor = open(temporary, flags, 0o600)
        if descriptor < 0, errno == ENOENT {
            // The first write, or the directory was removed: create it and try again.
            try? FileManager.default.createDirectory(
                at: directory,
                withIntermediateDirectories: true
            )
            descriptor = open(temporary, flags, 0o600)
        }
        guard descriptor >= 0 else { return errno }
        var failure: Int32?
        let written = contents.withUnsafeBytes { bytes in
            bytes.isEmpty ? 0 : write(descriptor, bytes.baseAddress, bytes.count)
        }
        if written != contents.count {
            failure = written < 0 ? errno : EIO
        } else if synchronizes, fsync(descriptor) != 0 {
            failure = errno
        }
        close(descriptor)
        if failure == nil, rename(temporary, path) != 0 {
            failure = errno
        }
        if failure != nil {
            unlink(temporary)
        }
        return failure
    }

    /// The temporary file a write of `name` goes to first: hidden, and named after the
    /// writing process and the write, so that no two writes share one.
    static func temporaryName(for name: String) -> String {
        ".\(name).\(getpid())-\(writes.add(1, ordering: .relaxed).newValue).tmp"
    }

    /// How many writes this process began: two writes of one name never share a file.
    private static let writes = Atomic<UInt64>(0)

    /// Whether the file `name` is a temporary file a write left: one whose process is
    /// gone, or which is older than `age` — a write takes far less.
    static func isLeftover(_ name: String, in directory: URL, olderThan age: TimeInterval) -> Bool {
        guard name.hasPrefix("."), name.hasSuffix(".tmp") else { return false }
        let parts = name.split(separator: ".")
        let writer = parts.count >= 3 ? parts[parts.count - 2].split(separator: "-").first : nil
        if let writer, let process = Int32(writer), process > 0,
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
