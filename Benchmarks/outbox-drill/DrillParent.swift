import Foundation

/// Runs the drill: starts the writing process on the next writes, kills it with
/// SIGKILL after a random pause, and again, until every write was sent — sometimes
/// with the server away for a round — then lets a last process drain the outbox, and
/// checks the server's count: every accepted write applied once, none twice.
struct DrillParent {
    let writes: Int
    var random: SeededRandom

    init(arguments: [String]) {
        func value(_ name: String) -> Int? {
            arguments.firstIndex(of: name).flatMap { Int(arguments[$0 + 1]) }
        }
        writes = value("--writes") ?? 1_000
        random = SeededRandom(seed: UInt64(value("--seed") ?? 1))
    }

    mutating func run() async -> Bool {
        let directory = FileManager.default.temporaryDirectory
            .appending(path: "loadingkit-outbox-drill-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        guard let server = try? DrillServer() else {
            print("error: could not start the server")
            return false
        }
        var accepted: Set<Int> = []
        var next = 0
        var rounds = 0
        var kills = 0
        while next < writes {
            rounds += 1
            let isAway = random.next(below: 6) == 0
            if isAway { server.stop() }
            let batch = min(writes, next + 1 + random.next(below: 20))
            let lines = runChild(
                server: server,
                directory: directory,
                range: next..<batch,
                killAfter: .microseconds(random.next(below: 150_000))
            )
            kills += lines.wasKilled ? 1 : 0
            accepted.formUnion(lines.accepted)
            // A write the process started may be on disk without saying so: it is
            // never sent again under a new key.
            next = max(next, (lines.sending.max() ?? next - 1) + 1)
            if isAway { try? server.start() }
        }
        let last = runChild(server: server, directory: directory, range: 0..<0, killAfter: nil)
        let applied = server.applied
        let lost = accepted.filter { applied[$0] == nil }.sorted()
        let twice = applied.filter { $0.value > 1 }.keys.sorted()
        print(
            "\(writes) writes, \(rounds) processes, \(kills) killed, \(accepted.count) accepted, "
                + "\(applied.count) applied, \(server.requestCount) requests"
        )
        print(
            "lost: \(lost.count)  applied twice: \(twice.count)  without key: \(server.requestsWithoutKey)"
        )
        guard last.drained, lost.isEmpty, twice.isEmpty, server.requestsWithoutKey == 0 else {
            print(
                "error: lost \(lost.prefix(10)), twice \(twice.prefix(10)), drained \(last.drained)"
            )
            return false
        }
        return true
    }

    /// What one writing process printed.
    struct ChildLines {
        var sending: [Int] = []
        var accepted: [Int] = []
        var drained = false
        var wasKilled = false
    }

    /// Runs the writing process on `range` — draining the outbox when `killAfter` is
    /// `nil`, else killed after that long — and reads what it printed.
    private func runChild(
        server: DrillServer,
        directory: URL,
        range: Range<Int>,
        killAfter delay: Duration?
    ) -> ChildLines {
        let process = Process()
        process.executableURL = URL(filePath: CommandLine.arguments[0])
        process.arguments =
            [
                "--child", "--port", "\(server.port)", "--directory", directory.path,
                "--from", "\(range.lowerBound)", "--to", "\(range.upperBound)",
            ] + (delay == nil ? ["--drain"] : [])
        let output = Pipe()
        process.standardOutput = output
        do {
            try process.run()
        } catch {
            print("error: could not start the writing process: \(error)")
            return ChildLines()
        }
        var lines = ChildLines()
        if let delay {
            let (seconds, attoseconds) = delay.components
            usleep(UInt32(seconds) * 1_000_000 + UInt32(attoseconds / 1_000_000_000_000))
            lines.wasKilled = process.isRunning
            kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
        let text = String(
            decoding: output.fileHandleForReading.readDataToEndOfFile(),
            as: UTF8.self
        )
        for line in text.split(separator: "\n") {
            let words = line.split(separator: " ")
            switch (words.first, words.count > 1 ? Int(words[1]) : nil) {
            case ("sending", let id?): lines.sending.append(id)
            case ("accepted", let id?): lines.accepted.append(id)
            case ("drained", _): lines.drained = true
            default: break
            }
        }
        return lines
    }
}

/// A small seeded generator (SplitMix64), so that a run can be repeated.
struct SeededRandom {
    var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next(below bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(bound))
    }
}
