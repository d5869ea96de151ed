import Foundation
import LoadingKit
import LoadingKitTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Randomized mutations of one post — optimistic, scoped or not, storing their answer
/// or not, kept until sent or not — with revalidations, invalidations, cancellations,
/// answers in any order (successes, refusals, server errors, connections lost before
/// or after the server applied a write, `304`s) and the server going away and coming
/// back, over two screens: every run ends with both screens and the store showing the
/// server's post, every mutation ended, and every kept write confirmed or rejected —
/// none left in the outbox, none applied twice.
///
/// `LOADINGKIT_MODEL_SEQUENCES` and `LOADINGKIT_MODEL_SEED` work as for the
/// interleavings (see ``SeededSequences``).
@MainActor
@Suite("Randomized writes", .timeLimit(.minutes(30)))
struct WriteModelTests {
    @Test("seeded random writes leave every screen equal to the server")
    func randomWrites() async throws {
        await SeededSequences.expectNoViolations("writes") { seed in
            var run = WriteRun(seed: seed)
            return await run.run()
        }
    }
}

/// One seeded sequence of writes.
@MainActor
private struct WriteRun {
    private let seed: UInt64
    private let random: RandomSource
    private let progress = CounterSignal()
    private let transport: HeldTransport
    private let recorder = EventRecorder()
    private let webservice: Webservice
    private let outbox: Outbox
    private let screens: [DetailScreen]
    private let post = Resource<Post>(url: URL(string: "https://model.test/posts/1")!)
    /// The server's post and the number of its version, its `ETag`.
    private var server = Post(id: 1, title: "v0")
    private var version = 0
    /// Whether the server can be reached; requests answer a lost connection when not.
    private var isReachable = true
    /// The answers of the writes applied, by their `Idempotency-Key`: a write sent again
    /// is answered the same, never applied twice.
    private var applied: [String: Data] = [:]
    /// The keys of the writes whose answer reached the kit, and those sent again after.
    private var confirmedKeys: Set<String> = []
    private var sentAfterConfirmed: Set<String> = []
    private var mutations: [MutationTask<Post>] = []
    private var loads: [Task<Void, Never>] = []
    private var steps: [String] = []

    init(seed: UInt64) {
        self.seed = seed
        random = .seeded(seed &* 0x9E37_79B9 &+ 7)
        transport = HeldTransport(signalling: progress)
        outbox = Outbox(directory: Self.directory(seed: seed), retry: .whenNudged, log: { _ in })
        webservice = Webservice(
            transport: transport,
            configuration: .init(monitor: recorder, outbox: outbox, mutationWait: nil)
        )
        screens = [DetailScreen(webservice: webservice), DetailScreen(webservice: webservice)]
    }

    /// The outbox's directory: in memory where there is a `tmpfs`, since the model
    /// checks the order of writes, not their durability.
    private static func directory(seed: UInt64) -> URL {
        let memory = URL(filePath: "/dev/shm", directoryHint: .isDirectory)
        let base =
            FileManager.default.fileExists(atPath: memory.path)
            ? memory : FileManager.default.temporaryDirectory
        return base.appending(
            path: "loadingkit-write-model-\(seed)-\(UUID().uuidString)",
            directoryHint: .isDirectory
        )
    }

    private func pick(_ count: Int) -> Int {
        min(count - 1, Int(random.next() * Double(count)))
    }

    mutating func run() async -> [String] {
        defer { try? FileManager.default.removeItem(at: outbox.directory) }
        for screen in screens {
            load(screen, policy: .ifNeeded)
        }
        for _ in 0..<(10 + pick(30)) {
            await step()
            await drain()
        }
        // The server comes back and the app says so.
        steps.append("the server is back")
        isReachable = true
        let outbox = outbox
        loads.append(Task { await outbox.resume() })
        if let unsettled = await settle() {
            printTrace()
            return ["never settled (\(unsettled)) after \(steps.suffix(6))"]
        }
        // The user retries what failed, as a pull to refresh would.
        let failed = screens.filter { $0.loadingState.error != nil }
        if !failed.isEmpty {
            steps.append("failed screens retry")
            for screen in failed {
                load(screen, policy: .force)
            }
            if let unsettled = await settle() {
                printTrace()
                return ["never settled (\(unsettled)) after \(steps.suffix(6))"]
            }
        }
        var violations: [String] = []
        for (index, screen) in screens.enumerated() where screen.titles.last != server.title {
            violations.append("screen \(index) shows \(screen.titles.last ?? "nothing")")
        }
        let stored = webservice.storedValue(for: post)
        if stored?.value.title != server.title || stored?.hasPendingChanges == true {
            violations.append("the store holds \(stored?.value.title ?? "nothing")")
        }
        if mutations.contains(where: \.isInFlight) {
            violations.append("a mutation never ended")
        }
        if !outbox.pendingWrites.isEmpty {
            violations.append("\(outbox.pendingWrites.count) kept writes never ended")
        }
        if !sentAfterConfirmed.isEmpty {
            violations.append("\(sentAfterConfirmed.count) writes sent again once confirmed")
        }
        if !violations.isEmpty, ProcessInfo.processInfo.environment["LOADINGKIT_MODEL_SEED"] != nil
        {
            print(steps.joined(separator: "\n"))
            print(recorder.lines.joined(separator: "\n"))
        }
        return violations.map { "\($0), server \(server.title), after \(steps.suffix(6))" }
    }

    /// Prints the end of the run's steps and of the kit's events: a run that never
    /// settles in CI's thousands of sequences may not settle again when replayed alone.
    private func printTrace() {
        print("writes, seed \(seed), steps:\n" + steps.suffix(40).joined(separator: "\n"))
        print("events:\n" + recorder.lines.suffix(80).joined(separator: "\n"))
    }

    private mutating func step() async {
        let index = pick(2)
        switch pick(10) {
        case 0..<3:
            let title = "m\(steps.count)"
            let request = try! Resource<Post>(
                url: post.request.url!,
                method: .patch,
                body: Post(id: 1, title: title)
            )
            var mutation = Mutation(request)
                .optimistically(updating: post) { $0 = Post(id: 1, title: title) }
            if pick(2) == 0 {
                mutation = mutation.scoped("post-1")
            }
            if pick(2) == 0 {
                mutation = mutation.storingAnswer(as: post)
            }
            if pick(2) == 0 {
                mutation = mutation.keptUntilSent()
            }
            steps.append("screen \(index) sends \(title)")
            let task: MutationTask<Post> = screens[index].startSending(mutation)
            mutations.append(task)
        case 3:
            steps.append("screen \(index) reloads")
            load(screens[index], policy: .force)
        case 4:
            let inFlight = mutations.filter(\.isInFlight)
            guard !inFlight.isEmpty else { return }
            let task = inFlight[pick(inFlight.count)]
            steps.append("a mutation is cancelled")
            task.cancel()
        case 5:
            steps.append("invalidated")
            webservice.invalidate(.resource(post))
        case 6 where pick(3) == 0:
            isReachable.toggle()
            steps.append(isReachable ? "the server is back" : "the server is away")
            if isReachable, pick(2) == 0 {
                steps.append("the app resumes the outbox")
                let outbox = outbox
                loads.append(Task { await outbox.resume() })
            }
        default:
            let pending = transport.pending
            guard !pending.isEmpty else { return }
            answer(pending[pick(pending.count)], outcome: pick(7))
        }
    }

    private mutating func load(_ screen: DetailScreen, policy: LoadPolicy) {
        let post = post
        loads.append(Task { await screen.load(resource: post, policy: policy) })
    }

    /// Answers `pending`: successes mostly; `outcome` 0 refuses it (a write with a
    /// `409` or a `503`), 1 loses the connection before the server saw it, 2 after it
    /// applied a write. A server away answers nothing.
    private mutating func answer(_ pending: HeldTransport.Pending, outcome: Int) {
        let request = pending.request
        let url = request.url!
        let key = request.value(forHTTPHeaderField: "Idempotency-Key")
        if let key, confirmedKeys.contains(key) {
            sentAfterConfirmed.insert(key)
        }
        guard isReachable else {
            steps.append("\(request.httpMethod!) finds no server")
            transport.answer(pending.id, with: .failure(URLError(.cannotConnectToHost)))
            return
        }
        if outcome == 1 {
            steps.append("\(request.httpMethod!) lost")
            transport.answer(pending.id, with: .failure(URLError(.networkConnectionLost)))
            return
        }
        let tag = "\"v\(version)\""
        let (status, body): (Int, Data)
        if outcome == 0 {
            let refusal = request.httpMethod == "PATCH" && pick(2) == 0 ? 409 : 503
            (status, body) = (refusal, Data())
        } else if request.httpMethod == "PATCH", let key, let answer = applied[key] {
            (status, body) = (200, answer)
        } else if request.httpMethod == "PATCH" {
            let sent = try! JSONDecoder().decode(Post.self, from: request.httpBody!)
            server = sent
            version += 1
            (status, body) = (200, try! JSONEncoder().encode(server))
            if let key {
                applied[key] = body
                if outcome == 2 {
                    steps.append("PATCH applied \(server.title), then lost")
                    transport.answer(pending.id, with: .failure(URLError(.timedOut)))
                    return
                }
            }
        } else if request.value(forHTTPHeaderField: "If-None-Match") == tag {
            (status, body) = (304, Data())
        } else {
            (status, body) = (200, try! JSONEncoder().encode(server))
        }
        steps.append("\(request.httpMethod!) \(status) \(server.title)")
        if let key, status != 503 {
            confirmedKeys.insert(key)
        }
        let response = HTTPURLResponse(
            url: url,
            statusCode: status,
            httpVersion: "HTTP/1.1",
            headerFields: ["ETag": "\"v\(version)\"", "Content-Type": "application/json"]
        )!
        transport.answer(pending.id, with: .success((body, response)))
    }

    /// Answers every request with success until nothing is pending, no mutation is in
    /// flight and no screen loads, across several drains in a row; when that never
    /// comes, what was still under way at the last drain.
    private mutating func settle() async -> String? {
        var quiet = 0
        var underWay: [String] = []
        for _ in 0..<2_000 {
            let pending = transport.pending
            for request in pending {
                answer(request, outcome: 3)
            }
            await drain()
            underWay = stillUnderWay(answered: pending.count)
            quiet = underWay.isEmpty ? quiet + 1 : 0
            if quiet == 3 {
                for load in loads {
                    await load.valuePropagatingCancellation
                }
                return nil
            }
        }
        return underWay.isEmpty ? "quiet for \(quiet) drains" : underWay.joined(separator: ", ")
    }

    /// What keeps the run from settling after a drain that answered `answered`
    /// requests. A replay of the outbox runs on another thread: it is over once no kept
    /// write waits.
    private func stillUnderWay(answered: Int) -> [String] {
        var underWay: [String] = []
        let pending = transport.pending.count
        if answered > 0 || pending > 0 {
            underWay.append("\(answered) answered, \(pending) pending")
        }
        let sending = mutations.filter(\.isInFlight).count
        if sending > 0 {
            underWay.append("mutations in flight: \(sending)")
        }
        for (index, screen) in screens.enumerated() where screen.loadingState.isLoading {
            underWay.append("screen \(index) loading")
        }
        let kept = outbox.pendingWrites
        if isReachable, !kept.isEmpty {
            let names = kept.map { "\($0.method.rawValue) #\($0.sequence)" }
            underWay.append("kept writes waiting: \(names.joined(separator: ", "))")
        }
        return underWay
    }

    private func drain() async {
        for _ in 0..<30 {
            await Task.yield()
        }
    }
}
