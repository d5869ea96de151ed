import Foundation

/// A ``ResourceStore`` on disk: one file per resource, named by a hash of its key,
/// written atomically, within a size cap (the least recently used files go first).
///
/// ```swift
/// let store = DiskResourceStore(
///     directory: URL.cachesDirectory.appending(path: "LoadingKit"),
///     maximumSize: 20 << 20
/// )
/// ```
///
/// A file that is corrupt, truncated, of another format version or of another key is
/// ignored and removed, never a crash; a write that fails — a full disk — is logged
/// and dropped. Log lines name the file, never the key, a header or a body. A file the
/// store cannot tell is its own — named like a record but not beginning as its files
/// do — is never counted, evicted or removed by ``removeAll()``.
public final class DiskResourceStore: ResourceStore {
    /// The directory the files are in.
    public let directory: URL
    /// The most bytes the files may take together.
    public let maximumSize: Int
    /// The directory's path, ending in `/`, for reads.
    private let directoryPath: String
    private let log: @Sendable (String) -> Void

    private struct FileInfo {
        var size: Int
        /// When the file was last written or read, in seconds since 1970: its
        /// modification date when another process, or an earlier launch, wrote it.
        var lastUse: TimeInterval
    }

    /// The files on disk as this process last saw them.
    private struct Index {
        var files: [String: FileInfo] = [:]
        var totalSize = 0

        mutating func set(_ name: String, _ info: FileInfo?) {
            totalSize += (info?.size ?? 0) - (files[name]?.size ?? 0)
            files[name] = info
        }

        /// Counts a read of file `name` as its latest use.
        mutating func noteUse(of name: String) {
            files[name]?.lastUse = Date().timeIntervalSince1970
        }
    }

    /// The files and their sizes, read from the directory on first use.
    private let index = Locked<Index?>(nil)

    /// How old a temporary file of a live process must be to count as a leftover.
    private static let leftoverAge: TimeInterval = 600

    /// Creates a store in `directory`, creating it when needed.
    ///
    /// - Parameters:
    ///   - directory: Where the files go; give the store a directory of its own. Two
    ///     processes may share it: each counts every file there against the cap.
    ///   - maximumSize: The most bytes the files may take together, and so the largest
    ///     record kept or read. Default: 50 MiB.
    ///   - log: Where failures are told. Default: standard error.
    public init(
        directory: URL,
        maximumSize: Int = 50 << 20,
        log: @escaping @Sendable (String) -> Void = DiskResourceStore.standardErrorLog
    ) {
        self.directory = directory
        let path = directory.path(percentEncoded: false)
        directoryPath = path.hasSuffix("/") ? path : path + "/"
        self.maximumSize = maximumSize
        self.log = log
    }

    /// Writes `message` on standard error.
    public static let standardErrorLog: @Sendable (String) -> Void = { message in
        FileHandle.standardError.write(Data("LoadingKit: \(message)\n".utf8))
    }

    /// The record under `key`; a file that does not read back whole is removed, and so
    /// is one larger than ``maximumSize`` or not a regular file, without reading it.
    ///
    /// - Parameter key: The resource's stable key.
    /// - Returns: The record, or `nil` when there is no file or it does not read back.
    public func record(forKey key: String) -> PersistedRecord? {
        let name = fileName(for: key)
        let record: PersistedRecord?
        switch DiskFile.contents(atPath: directoryPath + name, limit: maximumSize) {
        case .missing: return nil
        case .unavailable(let reason):
            log("could not read stored file \(name): \(reason)")
            return nil
        case .refused(let reason):
            log("removed stored file \(name): \(reason)")
            record = nil
        case .contents(let data):
            record = PersistedFile.decode(data, key: key)
            if record == nil {
                log("removed unreadable stored file \(name)")
            }
        }
        guard let record else {
            remove(name)
            return nil
        }
        // A read can be where a loader's load begins, on the main actor: it never
        // reads the directory for the index, and counts as a use once the index is read.
        index.withLock { $0?.noteUse(of: name) }
        return record
    }

    /// Writes `record` under `key` atomically, then removes the least recently used
    /// files past the size cap — counting every file in the directory, those of other
    /// processes too; logs and drops a write that fails or is larger than the cap.
    ///
    /// - Parameters:
    ///   - record: What to keep.
    ///   - key: The resource's stable key.
    public func store(_ record: PersistedRecord, forKey key: String) {
        let name = fileName(for: key)
        let data = PersistedFile.encode(record, key: key)
        guard data.count <= maximumSize else {
            log("did not write stored file \(name): \(data.count) bytes, over \(maximumSize)")
            remove(name)
            return
        }
        if let failure = DiskFile.replace(
            named: name,
            in: directory,
            with: data,
            synchronizes: false
        ) {
            log("could not write stored file \(name): errno \(failure)")
            return
        }
        let evicted = withIndex { index -> [String] in
            index.set(name, FileInfo(size: data.count, lastUse: Date().timeIntervalSince1970))
            return evictions(from: &index)
        }
        for name in evicted {
            unlink(directoryPath + name)
        }
    }

    /// Removes the record under `key`.
    ///
    /// - Parameter key: The resource's stable key.
    public func removeRecord(forKey key: String) {
        remove(fileName(for: key))
    }

    /// Removes every record in the directory — those other processes wrote too — and
    /// the temporary files writes left; no other file.
    public func removeAll() {
        index.withLock { index in
            for name in directoryNames() where isOwnRecord(name) || Self.isTemporaryRecord(name) {
                unlink(directoryPath + name)
            }
            index = Index()
        }
    }

    /// The bytes the files take together, as this process last counted them.
    public var totalSize: Int { withIndex { $0.totalSize } }

    private func remove(_ name: String) {
        index.withLock { $0?.set(name, nil) }
        unlink(directoryPath + name)
    }

    private func fileName(for key: String) -> String {
        StableHash.hex(of: key) + ".lkrs"
    }

    private static func isRecord(_ name: String) -> Bool {
        name.hasSuffix(".lkrs") && !name.hasPrefix(".")
    }

    /// Whether `name` is a record the store wrote: named as one, and beginning as its
    /// files do.
    private func isOwnRecord(_ name: String) -> Bool {
        Self.isRecord(name) && PersistedFile.isStoreFile(atPath: directoryPath + name)
    }

    /// Whether `name` is the temporary file of a write of a record.
    private static func isTemporaryRecord(_ name: String) -> Bool {
        name.hasPrefix(".") && name.hasSuffix(".tmp") && name.contains(".lkrs.")
    }

    /// The least recently used files to remove so that `index` is within the cap,
    /// taken off it.
    private func evictions(from index: inout Index) -> [String] {
        guard index.totalSize > maximumSize else { return [] }
        var evicted: [String] = []
        for (name, _) in index.files.sorted(by: { $0.value.lastUse < $1.value.lastUse }) {
            guard index.totalSize > maximumSize else { break }
            index.set(name, nil)
            evicted.append(name)
        }
        return evicted
    }

    /// Runs `body` on the index, brought up to date with the directory first: on the
    /// first use, the directory is read whole — the temporary files killed writes left
    /// are removed, and files past the cap — and later, the files other processes
    /// wrote or removed since are counted.
    private func withIndex<Result>(_ body: (inout Index) -> Result) -> Result {
        index.withLock { index in
            var current = index ?? Index()
            let isOpening = index == nil
            let names = Set(directoryNames())
            for name in current.files.keys where !names.contains(name) {
                current.set(name, nil)
            }
            for name in names where current.files[name] == nil {
                if isOwnRecord(name) {
                    current.set(name, fileInfo(of: name))
                } else if isOpening, Self.isTemporaryRecord(name),
                    DiskFile.isLeftover(name, in: directory, olderThan: Self.leftoverAge)
                {
                    unlink(directoryPath + name)
                }
            }
            if isOpening {
                for name in evictions(from: &current) {
                    unlink(directoryPath + name)
                }
            }
            defer { index = current }
            return body(&current)
        }
    }

    private func directoryNames() -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: directoryPath)) ?? []
    }

    private func fileInfo(of name: String) -> FileInfo? {
        guard
            let attributes = try? FileManager.default.attributesOfItem(
                atPath: directoryPath + name
            ),
            let size = (attributes[.size] as? NSNumber)?.intValue
        else { return nil }
        let modified = attributes[.modificationDate] as? Date
        return FileInfo(size: size, lastUse: modified?.timeIntervalSince1970 ?? 0)
    }
}
