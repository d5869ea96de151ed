import Foundation
import LoadingKitNetworking

/// The writing process: stores records of random sizes under random keys of
/// `--keys`, into a `DiskResourceStore` in `--directory` capped at `--cap` bytes —
/// `--writes` of them, or until it is killed — and prints `wrote N` after each.
struct CacheDrillChild {
    let directory: URL
    let cap: Int
    let writes: Int
    let seed: UInt64

    init(arguments: [String]) {
        func value(_ name: String) -> String {
            arguments.firstIndex(of: name).map { arguments[$0 + 1] } ?? ""
        }
        directory = URL(filePath: value("--directory"), directoryHint: .isDirectory)
        cap = Int(value("--cap")) ?? 1 << 20
        writes = Int(value("--writes")) ?? .max
        seed = UInt64(value("--seed")) ?? 1
    }

    func run() {
        let store = DiskResourceStore(directory: directory, maximumSize: cap) { _ in }
        let random = RandomSource.seeded(seed)
        var written = 0
        while written < writes {
            let size = 1 + Int(random.next() * Double(CacheDrillParent.largestBody))
            store.store(
                PersistedRecord(
                    body: Data(repeating: 65, count: size),
                    entityTag: "\"\(written)\""
                ),
                forKey: "resource \(Int(random.next() * Double(CacheDrillParent.keys)))"
            )
            written += 1
            FileHandle.standardOutput.write(Data("wrote \(written)\n".utf8))
        }
    }
}
