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
/// and dropped. Log lines name the file, never the key, a header or a body.
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
        var lastUse: UInt64
    }

    private struct Index {
        var files: [String: FileInfo] = [:]
        var totalSize = 0
        var clock: UInt64 = 0

        /// Counts a read of file `name` as its latest use.
        mutating func noteUse(of name: String) {
            clock += 1
            files[name]?.lastUse = clock
        }
    }

    /// The files and their sizes, read from the directory on first use.
    private let index = Locked<Index?>(nil)

    /// Creates a store in `directory`, creating it when needed.
    ///
    /// - Parameters:
    ///   - directory: Where the files go; give the store a directory of its own.
    ///   - maximumSize: The most bytes the files may take together. Default: 50 MiB.
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

    /// The record under `key`; a file that does not read back whole is removed.
    ///
    /// - Parameter key: The resource's stable key.
    /// - Returns: The record, or `nil` when there is no file or it does not read back.
    public func record(forKey key: String) -> PersistedRecord? {
        let name = fileName(for: key)
        guard let data = FileManager.default.contents(atPath: directoryPath + name) else {
            return nil
        }
        guard let record = PersistedFile.decode(data, key: key) else {
            log("removed unreadable stored file \(name)")
            remove(name)
            return nil
        }
        // A read can be where a loader's load begins, on the main actor: it never
        // reads the directory for the index, and counts as a use once the index is read.
        index.withLock { $0?.noteUse(of: name) }
        return record
    }

    /// Writes `record` under `key` atomically, then removes the least recently used
    /// files past the size cap; logs and drops a write that fails.
    ///
    /// - Parameters:
    ///   - record: What to keep.
    ///   - key: The resource's stable key.
    public func store(_ record: PersistedRecord, forKey key: String) {
        let name = fileName(for: key)
        let data: Data
        do {
            data = PersistedFile.encode(record, key: key)
            try FileManager.default.createDirectory(
                at: directory,
                withIntermediateDirectories: true
            )
            try data.write(to: directory.appending(path: name), options: .atomic)
        } catch {
            log(
                "could not write stored file \(name): \(type(of: error)) \((error as NSError).code)"
            )
            return
        }
        let evicted = withIndex { index -> [String] in
            index.clock += 1
            index.totalSize += data.count - (index.files[name]?.size ?? 0)
            index.files[name] = FileInfo(size: data.count, lastUse: index.clock)
            var evicted: [String] = []
            while index.totalSize > maximumSize,
                let oldest = index.files.min(by: { $0.value.lastUse < $1.value.lastUse })
            {
                index.files[oldest.key] = nil
                index.totalSize -= oldest.value.size
                evicted.append(oldest.key)
            }
            return evicted
        }
        for name in evicted {
            try? FileManager.default.removeItem(at: directory.appending(path: name))
        }
    }

    /// Removes the record under `key`.
    ///
    /// - Parameter key: The resource's stable key.
    public func removeRecord(forKey key: String) {
        remove(fileName(for: key))
    }

    /// Removes every record.
    public func removeAll() {
        let names = withIndex { index -> [String] in
            defer { index = Index() }
            return Array(index.files.keys)
        }
        for name in names {
            try? FileManager.default.removeItem(at: directory.appending(path: name))
        }
    }

    /// The bytes the files take together.
    public var totalSize: Int { withIndex { $0.totalSize } }

    private func remove(_ name: String) {
        withIndex { index in
            if let info = index.files.removeValue(forKey: name) {
                index.totalSize -= info.size
            }
        }
        try? FileManager.default.removeItem(at: directory.appending(path: name))
    }

    private func fileName(for key: String) -> String {
        StableHash.hex(of: key) + ".lkrs"
    }

    /// Runs `body` on the index, reading the directory first when it is the first use.
    private func withIndex<Result>(_ body: (inout Index) -> Result) -> Result {
        index.withLock { index in
            if index == nil {
                index = readIndex()
            }
            return body(&index!)
        }
    }

    private func readIndex() -> Index {
        var index = Index()
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for name in names where name.hasSuffix(".lkrs") {
            let attributes = try? FileManager.default.attributesOfItem(
                atPath: directory.appending(path: name).path
            )
            let size = (attributes?[.size] as? NSNumber)?.intValue ?? 0
            index.files[name] = FileInfo(size: size, lastUse: 0)
            index.totalSize += size
        }
        return index
    }
}
