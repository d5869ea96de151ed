import Foundation
import LoadingKitNetworking

/// Runs the drill: starts writing processes — one or two at a time — and kills them
/// with SIGKILL after a random pause, `--kills` times; then runs two side by side to
/// the end; then opens a store on the directory and checks it: no temporary file left,
/// every record readable or removed, and the files within the cap.
struct CacheDrillParent {
    /// How many keys the writers choose from, and the largest body they write.
    static let keys = 200
    static let largestBody = 16 << 10

    let kills: Int
    let cap = 512 << 10
    let random: RandomSource

    init(arguments: [String]) {
        func value(_ name: String) -> Int? {
            arguments.firstIndex(of: name).flatMap { Int(arguments[$0 + 1]) }
        }
        kills = value("--kills") ?? 100
        random = .seeded(UInt64(value("--seed") ?? 1))
    }

    func run() -> Bool {
        let directory = FileManager.default.temporaryDirectory
            .appending(path: "loadingkit-cache-drill-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        var killed = 0
        var largestAfterKill = 0
        var leftovers = 0
        while killed < kills {
            let processes = (0..<(random.next() < 1 / 3 ? 2 : 1)).map { _ in
                start(directory: directory, writes: nil)
            }
            usleep(UInt32(2_000 + random.next() * 30_000))
            for process in processes {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                killed += 1
            }
            largestAfterKill = max(largestAfterKill, records(in: directory).size)
            // The next writer sweeps them as its store opens.
            leftovers += temporaryFiles(in: directory).count
        }
        let pair = [
            start(directory: directory, writes: 300), start(directory: directory, writes: 300),
        ]
        for process in pair { process.waitUntilExit() }
        let afterPair = records(in: directory).size

        // Opening a store sweeps what killed writes left; reading checks every record.
        let store = DiskResourceStore(directory: directory, maximumSize: cap) { _ in }
        store.store(PersistedRecord(body: Data("{}".utf8)), forKey: "opening")
        var unreadable = 0
        for key in 0..<Self.keys where store.record(forKey: "resource \(key)") == nil {
            unreadable += 1
        }
        let remaining = temporaryFiles(in: directory)
        let (count, size) = records(in: directory)
        print(
            "\(killed) writers killed, \(leftovers) temporary files seen after a kill; "
                + "after two writers side by side: \(afterPair) bytes (cap \(cap))"
        )
        print(
            "after a store opened: \(remaining.count) temporary files, \(count) records, "
                + "\(size) bytes, \(Self.keys - unreadable) of \(Self.keys) keys readable"
        )
        // Two writers each see the other's files before they write: together they pass
        // the cap by at most the record the other wrote meanwhile.
        let slack = 2 * (Self.largestBody + 1_024)
        guard remaining.isEmpty, size <= cap, afterPair <= cap + slack,
            largestAfterKill <= cap + slack
        else {
            print(
                "error: \(remaining.count) temporary files remain, \(size) bytes after opening, "
                    + "\(afterPair) after the pair, \(largestAfterKill) after a kill (cap \(cap))"
            )
            return false
        }
        return true
    }

    /// Starts a writing process on `directory`: `writes` records, or until killed.
    private func start(directory: URL, writes: Int?) -> Process {
        let process = Process()
        process.executableURL = URL(filePath: CommandLine.arguments[0])
        process.arguments =
            [
                "--child", "--directory", directory.path, "--cap", "\(cap)",
                "--seed", "\(UInt64(random.next() * 0x1_0000_0000))",
            ] + (writes.map { ["--writes", "\($0)"] } ?? [])
        process.standardOutput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            print("error: could not start a writing process: \(error)")
            exit(1)
        }
        return process
    }

    private func names(in directory: URL) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    }

    /// Every file but the records: what writes left.
    private func temporaryFiles(in directory: URL) -> [String] {
        names(in: directory).filter { !$0.hasSuffix(".lkrs") || $0.hasPrefix(".") }
    }

    /// The record files in `directory`: how many, and the bytes they take.
    private func records(in directory: URL) -> (count: Int, size: Int) {
        let sizes = names(in: directory).filter { $0.hasSuffix(".lkrs") }.map { name in
            let path = directory.appending(path: name).path
            let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size]
            return (size as? NSNumber)?.intValue ?? 0
        }
        return (sizes.count, sizes.reduce(0, +))
    }
}
