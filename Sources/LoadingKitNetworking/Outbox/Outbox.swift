import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Where a webservice keeps the mutations that must reach the server however long it
/// takes — those sent ``Mutation/keptUntilSent()`` — one file per write in a
/// directory, until the server confirms or rejects each.
///
/// ```swift
/// let outbox = Outbox(directory: URL.applicationSupportDirectory.appending(path: "Outbox"))
/// outbox.register("rename-post", rebuild: renaming)  // see Mutation.keptUntilSent(as:input:)
/// let webservice = Webservice(configuration: .init(outbox: outbox))
/// ```
///
/// A kept write is on disk before it is sent, and leaves the disk only once the server
/// answered it: a process killed at any instant loses none, and the `Idempotency-Key`
/// sent with every attempt lets a server that honours it apply none twice. A write the
/// server cannot be reached for is sent again — in order within its scope — by itself
/// after a growing wait (``OutboxRetry``), when a request to its server gets an answer,
/// on ``resume()``, and when a webservice starts with the outbox. A write the server rejects with a `4xx` leaves it, its optimistic
/// changes taken back. Header fields that carry credentials (`Authorization`, `Cookie`,
/// `X-API-Key` — any whose name has a word such as `token`, `key`, `secret` or `auth`,
/// or that the webservice's `credentialNames` lists) are never written: they are taken
/// from the request the app builds when the write is sent. The URL is written as it is:
/// keep credentials out of it.
///
/// A file that does not read back whole is removed and reported, never a crash. Give
/// each outbox a directory of its own, and one webservice.
public final class Outbox: Sendable {
    /// The directory the writes are in.
    public let directory: URL
    /// The most writes the outbox holds; the next is refused with
    /// ``OutboxRefusal/full(maximumWrites:maximumSize:)``.
    public let maximumWrites: Int
    /// The most bytes the writes' files may take together.
    public let maximumSize: Int
    /// How long the caller of a kept write's first sending waits for the server's
    /// answer: past it, the caller is told the write is queued
    /// (``WebserviceError/queued(_:)``), as for a server that cannot be reached, and the
    /// sending goes on; its answer is applied when it comes.
    public let answerWait: Duration
    /// When the writes that wait are sent again by themselves.
    public let retry: OutboxRetry
    private let log: @Sendable (String) -> Void
    private let state = Locked(State())
    /// The largest file read back, whatever ``maximumSize`` is now: 64 MiB.
    private static let largestFile = 64 << 20
    /// How many writes wait to be sent again: a response reads it before the lock.
    private let waitingCount = Atomic<Int>(0)
    /// How many origins found no server at their last request: a response reads it
    /// before the lock.
    private let unreachableCount = Atomic<Int>(0)

    /// Creates an outbox in `directory`, which it creates when needed; it reads what
    /// the directory holds when a webservice starts with it.
    ///
    /// - Parameters:
    ///   - directory: Where the writes go; give the outbox a directory of its own.
    ///   - maximumWrites: The most writes it holds. Default: 1,000.
    ///   - maximumSize: The most bytes their files take together. Default: 10 MiB.
    ///   - answerWait: How long the caller of a kept write waits for the server's answer
    ///     before it is told the write is queued. Default: 3 seconds.
    ///   - retry: When the writes that wait are sent again by themselves. Default: after
    ///     1 s, doubling up to 60 s, ±20 %.
    ///   - log: Where files it cannot read or write are told; never a body, a header
    ///     or a URL. Default: standard error.
    public init(
        directory: URL,
        maximumWrites: Int = 1_000,
        maximumSize: Int = 10 << 20,
        answerWait: Duration = .seconds(3),
        retry: OutboxRetry = OutboxRetry(),
        log: @escaping @Sendable (String) -> Void = DiskResourceStore.standardErrorLog
    ) {
        self.directory = directory
        self.maximumWrites = maximumWrites
        self.maximumSize = maximumSize
        self.answerWait = answerWait
        self.retry = retry
        self.log = log
    }

    /// Registers how to rebuild the mutations kept as `kind`
    /// (``Mutation/keptUntilSent(as:input:)``) after a relaunch, from their input:
    /// their optimistic changes show again, and their answers are stored — and what
    /// they change revalidated, since the write may have reached the server before the
    /// relaunch and a repeated key gets the first answer again. Register
    /// every kind before a webservice starts with the outbox.
    ///
    /// ```swift
    /// outbox.register("rename-post") { (rename: Rename) in renaming(rename) }
    /// ```
    ///
    /// - Parameters:
    ///   - kind: The name the mutations were kept as.
    ///   - rebuild: Builds the mutation from its input; its request's credential header
    ///     fields are sent with the recorded request. When it throws, or the input does
    ///     not decode, the write is sent as recorded, with no change shown.
    public func register<Input: Decodable & Sendable, A: Sendable>(
        _ kind: String,
        rebuild: @escaping @Sendable (Input) throws -> Mutation<A>
    ) {
        let rebuilder: Rebuilder = { record, webservice in
            guard let input = record.input,
                let decoded = try? JSONDecoder().decode(Input.self, from: input),
                let mutation = try? rebuild(decoded)
            else { return nil }
            return webservice.restoredWrite(mutation, record: record)
        }
        state.withLock { $0.rebuilders[kind] = rebuilder }
    }

    /// The writes waiting for the server, in the order they were kept — those being
    /// sent included.
    public var pendingWrites: [QueuedWrite] {
        state.withLock { state in
            state.entries.keys.sorted().map { state.entries[$0]!.record.queuedWrite }
        }
    }

    /// Sends the writes waiting for the server now, in order within each scope, and
    /// returns once each was sent once: confirmed, rejected, or still waiting because
    /// its server cannot be reached or answered with a server error. Returns at once
    /// when no webservice started with the outbox.
    public func resume() async {
        let webservice = state.withLock { state -> Webservice? in
            state.unreachableOrigins.removeAll()
            unreachableCount.store(0, ordering: .releasing)
            return state.webservice
        }
        guard let webservice else { return }
        await replay(through: webservice)
    }

    // MARK: - Package

    /// Rebuilds a kept write from its record, for a webservice.
    typealias Rebuilder = @Sendable (OutboxRecord, Webservice) -> KeptWrite?

    /// One write the outbox holds.
    struct Entry {
        var record: OutboxRecord
        let size: Int
        /// How to send it again; `nil` while its first sending is under way.
        var write: KeptWrite?
        /// Whether it is being sent.
        var isInFlight: Bool
    }

    struct State {
        weak var webservice: Webservice?
        var entries: [UInt64: Entry] = [:]
        var totalSize = 0
        var lastSequence: UInt64 = 0
        /// The origins whose last request found no server: writes to them wait.
        var unreachableOrigins: Set<String> = []
        var rebuilders: [String: Rebuilder] = [:]
        var isReplaying = false
        var isReplayAskedAgain = false
        /// The origins that answered another request during the pass under way: a
        /// write to one of them that found no server is sent again in another pass —
        /// once per replay, so a server that answers loads but drops writes makes no
        /// loop.
        var answeredDuringPass: Set<String> = []
        var hasPassedAgainForAnswer = false
        /// Those waiting for the replay under way, and the one asked for meanwhile, to end.
        var replayWaiters: [CheckedContinuation<Void, Never>] = []
        /// How many tries in a row sent no write: the next waits longer.
        var retryFailures = 0
        /// The task that waits for the next try, if one does.
        var retryTimer: RetryTimer?
        var lastRetry: UInt64 = 0
    }

    /// Starts the outbox for `webservice`: sweeps the files a killed write left, reads
    /// the writes kept, rebuilding each, and starts sending them. Returns the names of
    /// the files refused. An outbox opens for one webservice only.
    func start(for webservice: Webservice) -> [String] {
        let isFirst = state.withLock { state -> Bool in
            guard state.webservice == nil else { return false }
            state.webservice = webservice
            // A timer of a webservice gone tries nothing: this one schedules its own.
            state.retryTimer = nil
            return true
        }
        guard isFirst else {
            log("an outbox serves one webservice; \(directory.lastPathComponent) is in use")
            return []
        }
        let (records, refused) = readDirectory()
        let rebuilders = state.withLock { $0.rebuilders }
        var opened: [UInt64: Entry] = [:]
        for (record, size) in records {
            let write =
                record.kind.flatMap { rebuilders[$0] }.flatMap { $0(record, webservice) }
                ?? webservice.restoredWrite(recordedOnly: record)
            opened[record.sequence] = Entry(
                record: record,
                size: size,
                write: write,
                isInFlight: false
            )
        }
        state.withLock { state in
            state.entries = opened
            state.totalSize = opened.values.reduce(0) { $0 + $1.size }
            state.lastSequence = opened.keys.max() ?? 0
        }
        waitingCount.store(opened.count, ordering: .releasing)
        if !opened.isEmpty {
            Task.detached { await self.replay(through: webservice) }
        }
        return refused
    }

    /// Writes `request` to disk as the next write, before it is sent.
    ///
    /// - Throws: ``OutboxRefusal`` when the outbox is full or the file cannot be
    ///   written.
    func keep(
        _ request: URLRequest,
        scope: String?,
        kind: String?,
        input: Data?,
        account: String?,
        credentials: CredentialNames
    ) throws(OutboxRefusal) -> OutboxRecord {
        let sequence = state.withLock { state -> UInt64 in
            state.lastSequence += 1
            return state.lastSequence
        }
        guard
            let record = OutboxRecord(
                sequence: sequence,
                idempotencyKey: UUID().uuidString,
                scope: scope,
                kind: kind,
                input: input,
                account: account,
                request: request,
                credentials: credentials
            )
        else { throw .cannotWrite }
        let contents = record.fileContents
        let hasRoom = state.withLock { state -> Bool in
            guard state.entries.count < maximumWrites,
                state.totalSize + contents.count <= maximumSize
            else { return false }
            state.entries[sequence] = Entry(
                record: record,
                size: contents.count,
                write: nil,
                isInFlight: true
            )
            state.totalSize += contents.count
            return true
        }
        guard hasRoom else {
            throw .full(maximumWrites: maximumWrites, maximumSize: maximumSize)
        }
        guard writeWhole(contents, named: record.fileName) else {
            forget(sequence)
            throw .cannotWrite
        }
        return record
    }

    /// Whether the write `record` waits instead of being sent now: its server was
    /// unreachable at the last try, or a write its account kept before it in its scope
    /// waits.
    func mustWait(_ record: OutboxRecord) -> Bool {
        state.withLock { state in
            state.unreachableOrigins.contains(record.url.origin)
                || (record.scope != nil
                    && state.entries.values.contains {
                        $0.record.scope == record.scope && $0.record.account == record.account
                            && $0.record.sequence < record.sequence
                    })
        }
    }

    /// Keeps the write `sequence` waiting, to be sent again by `write` — by itself
    /// after the retry's wait, unless a replay under way sees to it.
    func park(_ sequence: UInt64, as write: KeptWrite) {
        let webservice = state.withLock { state -> Webservice? in
            guard state.entries[sequence] != nil else { return nil }
            if state.entries[sequence]!.write == nil {
                waitingCount.add(1, ordering: .releasing)
            }
            state.entries[sequence]!.write = write
            state.entries[sequence]!.isInFlight = false
            return state.isReplaying ? nil : state.webservice
        }
        if let webservice {
            scheduleRetry(through: webservice)
        }
    }

    /// Removes the write `sequence`, which the server confirmed or rejected, from the
    /// disk and the outbox.
    func remove(_ sequence: UInt64) {
        unlink(directory.appending(path: OutboxRecord.fileName(of: sequence)).path)
        forget(sequence)
    }

    /// Notes that no server answered at `url`'s origin: writes to it wait.
    func noteUnreachable(_ url: URL?) {
        guard let url else { return }
        state.withLock { state in
            state.unreachableOrigins.insert(url.origin)
            unreachableCount.store(state.unreachableOrigins.count, ordering: .releasing)
        }
    }

    /// Notes that the server answered `request` with `status`: the writes waiting for
    /// its origin are sent again when it was unreachable, or when it answered a success
    /// while some wait and no try is under way. During a try, an answer to another
    /// request only tells the try its server is there; the answers to the try's own
    /// writes — known by their `Idempotency-Key` — wake nothing.
    func noteAnswer(to request: URLRequest, status: Int) {
        guard
            waitingCount.load(ordering: .acquiring) > 0
                || unreachableCount.load(ordering: .acquiring) > 0,
            let url = request.url
        else { return }
        let origin = url.origin
        let key = request.value(forHTTPHeaderField: "Idempotency-Key")
        let webservice = state.withLock { state -> Webservice? in
            let wasUnreachable = state.unreachableOrigins.remove(origin) != nil
            unreachableCount.store(state.unreachableOrigins.count, ordering: .releasing)
            if wasUnreachable {
                // The server is back: the next try of the outbox's own comes soon.
                state.retryFailures = 0
            }
            guard !state.isReplaying else {
                let isTrysOwn =
                    key != nil
                    && state.entries.values.contains {
                        $0.write != nil && $0.isInFlight && $0.record.idempotencyKey == key
                    }
                guard !isTrysOwn else { return nil }
                state.answeredDuringPass.insert(origin)
                // Writes this try held back from a server it found away go in one more
                // pass, once per replay.
                let heldBack = state.entries.values.contains {
                    $0.write != nil && !$0.isInFlight && $0.record.url.origin == origin
                }
                if wasUnreachable, heldBack, !state.hasPassedAgainForAnswer {
                    state.hasPassedAgainForAnswer = true
                    state.isReplayAskedAgain = true
                }
                return nil
            }
            guard wasUnreachable || (200..<300).contains(status),
                state.entries.values.contains(where: {
                    $0.write != nil && !$0.isInFlight && $0.record.url.origin == origin
                })
            else { return nil }
            return state.webservice
        }
        guard let webservice else { return }
        // Detached: the answer may be a credential renewal's, whose marker a task
        // started here would carry.
        Task.detached { await self.replay(through: webservice) }
    }

    /// Sends the writes that wait, when some do, in the background: the account that
    /// kept them may have signed in.
    func sendWaiting() {
        guard waitingCount.load(ordering: .acquiring) > 0,
            let webservice = state.withLock({ $0.webservice })
        else { return }
        Task.detached { await self.replay(through: webservice) }
    }

    // MARK: - Replay

    /// Sends each waiting write once, oldest first; a write that still waits holds
    /// back the later ones of its scope, and one whose server cannot be reached those
    /// to its origin. Runs one pass at a time; a pass asked for meanwhile runs after.
    private func replay(through webservice: Webservice) async {
        let starts = state.withLock { state -> Bool in
            guard !state.isReplaying else {
                state.isReplayAskedAgain = true
                return false
            }
            state.isReplaying = true
            state.hasPassedAgainForAnswer = false
            // A try scheduled is void: this pass schedules the next.
            state.retryTimer?.due = nil
            return true
        }
        guard starts else {
            // The pass under way runs once more after it ends; this returns then.
            await withCheckedContinuation { continuation in
                let isWaiting = state.withLock { state -> Bool in
                    guard state.isReplaying else { return false }
                    state.replayWaiters.append(continuation)
                    return true
                }
                if !isWaiting {
                    continuation.resume()
                }
            }
            return
        }
        var waiters: [CheckedContinuation<Void, Never>] = []
        var again = true
        var sent = false
        while again {
            state.withLock { $0.answeredDuringPass = [] }
            sent = await replayPass(through: webservice) || sent
            again = state.withLock { state in
                defer { state.isReplayAskedAgain = false }
                state.isReplaying = state.isReplayAskedAgain
                if !state.isReplaying {
                    waiters = state.replayWaiters
                    state.replayWaiters = []
                    // Bounded: past the maximum delay more failures change nothing.
                    state.retryFailures = sent ? 0 : min(state.retryFailures + 1, 64)
                }
                return state.isReplayAskedAgain
            }
        }
        for waiter in waiters {
            waiter.resume()
        }
        scheduleRetry(through: webservice)
    }

    /// Schedules the next try, after the retry's wait, when writes the signed-in
    /// account may send wait and no try is scheduled or under way: the timer waiting
    /// already is moved, unless it wakes after the new try is due.
    private func scheduleRetry(through webservice: Webservice) {
        let isSendable = Self.sendable(through: webservice)
        let clock = webservice.configuration.clock
        let started = state.withLock { state -> RetryTimer? in
            let waits = state.entries.values.contains { entry in
                entry.write != nil && !entry.isInFlight && isSendable(entry.record)
            }
            guard waits, !state.isReplaying, state.retryTimer?.due == nil else { return nil }
            let wait = retry.wait(afterFailures: state.retryFailures)
            if state.retryTimer?.moveDue(to: wait) == true { return nil }
            state.lastRetry += 1
            state.retryTimer = RetryTimer(number: state.lastRetry, on: clock, due: wait)
            return state.retryTimer
        }
        guard let started else { return }
        // A timer made void sleeps on, not cancelled: a sleep cancelled on Linux holds
        // its memory until its deadline anyway. The next try moves it instead.
        Task.detached { [weak self, weak webservice] in
            var sleep = started.wakes
            while true {
                try? await clock.sleep(for: sleep)
                guard let self else { return }
                guard let webservice else {
                    // No try without it: the timer's record goes with its task.
                    self.state.withLock { state in
                        if state.retryTimer?.number == started.number { state.retryTimer = nil }
                    }
                    return
                }
                let waking = self.state.withLock { state -> RetryTimer.Waking in
                    guard state.retryTimer?.number == started.number else { return .void }
                    let waking = state.retryTimer!.wake()
                    if case .early = waking { return waking }
                    state.retryTimer = nil
                    return waking
                }
                switch waking {
                case .void: return
                case .due: return await self.replay(through: webservice)
                case .early(let rest): sleep = rest
                }
            }
        }
    }

    /// Sends each waiting write the signed-in account may send once; returns whether
    /// one was confirmed or rejected.
    private func replayPass(through webservice: Webservice) async -> Bool {
        let isSendable = Self.sendable(through: webservice)
        // A load of a value the waiting writes change waits for the pass, not one
        // write: it would be asked again after each.
        let changes = state.withLock { state in
            state.entries.values.filter { isSendable($0.record) }.compactMap {
                $0.write?.changesValue
            }
        }
        let hold =
            changes.isEmpty
            ? nil : webservice.writes.holdLoads { identity in changes.contains { $0(identity) } }
        defer {
            if let hold { webservice.writes.end(hold, in: nil) }
        }
        var tried: Set<UInt64> = []
        var sent = false
        var heldScopes: Set<String> = []
        var heldOrigins: Set<String> = []
        while let (sequence, write) = nextWrite(
            notIn: tried,
            heldScopes: heldScopes,
            heldOrigins: heldOrigins,
            sendable: isSendable
        ) {
            tried.insert(sequence)
            let record = write.record
            let outcome = await write.send(webservice)
            if !outcome.isFinal {
                // Parked by its sending, with what it learnt, unless it was not sent.
                state.withLock { state in
                    guard state.entries[sequence]?.isInFlight == true else { return }
                    state.entries[sequence]!.isInFlight = false
                }
            }
            switch outcome {
            case .confirmed, .rejected:
                sent = true
            case .cancelled:
                break
            case .unreachable:
                heldOrigins.insert(record.url.origin)
                if let scope = record.scope { heldScopes.insert(scope) }
                state.withLock { state in
                    // Its server answered something else meanwhile: it is back.
                    if !state.hasPassedAgainForAnswer,
                        state.answeredDuringPass.contains(record.url.origin)
                    {
                        state.hasPassedAgainForAnswer = true
                        state.isReplayAskedAgain = true
                    }
                }
            case .waits:
                if let scope = record.scope { heldScopes.insert(scope) }
            }
        }
        return sent
    }

    /// Whether a write may be sent now: with an authenticator, only those of the account
    /// signed in; the others wait for it, holding nothing back.
    private static func sendable(through webservice: Webservice) -> (OutboxRecord) -> Bool {
        let authenticator = webservice.configuration.authenticator
        let account = authenticator?.signedInAccount
        return { record in
            authenticator == nil || (record.account != nil && record.account == account)
        }
    }

    /// The oldest waiting write not tried in this pass whose scope and origin are not
    /// held back, of those `sendable` says may go now, marked in flight; `nil` when
    /// there is none.
    private func nextWrite(
        notIn tried: Set<UInt64>,
        heldScopes: Set<String>,
        heldOrigins: Set<String>,
        sendable: (OutboxRecord) -> Bool
    ) -> (UInt64, KeptWrite)? {
        state.withLock { state -> (UInt64, KeptWrite)? in
            var blockedScopes = heldScopes
            for sequence in state.entries.keys.sorted() {
                let entry = state.entries[sequence]!
                guard sendable(entry.record) else { continue }
                let scope = entry.record.scope
                if let scope, blockedScopes.contains(scope) { continue }
                guard let write = entry.write, !entry.isInFlight, !tried.contains(sequence),
                    !heldOrigins.contains(entry.record.url.origin)
                else {
                    // A write ahead in its scope that is not sent now holds the rest back.
                    if let scope { blockedScopes.insert(scope) }
                    continue
                }
                state.entries[sequence]!.isInFlight = true
                return (sequence, write)
            }
            return nil
        }
    }

    // MARK: - Disk

    private func forget(_ sequence: UInt64) {
        state.withLock { state in
            guard let entry = state.entries.removeValue(forKey: sequence) else { return }
            state.totalSize -= entry.size
            if entry.write != nil {
                waitingCount.subtract(1, ordering: .releasing)
            }
        }
    }

    /// Writes `contents` as file `name`, whole or not at all: to a temporary file,
    /// synchronized, then renamed.
    private func writeWhole(_ contents: Data, named name: String) -> Bool {
        guard
            let failure = DiskFile.replace(
                named: name,
                in: directory,
                with: contents,
                synchronizes: true
            )
        else { return true }
        log("could not write outbox file \(name): errno \(failure)")
        return false
    }

    /// The records in the directory with their sizes, oldest first, and the names of
    /// the files refused — removed, as are the temporary files of writes a kill cut.
    private func readDirectory() -> ([(OutboxRecord, Int)], [String]) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        var records: [(OutboxRecord, Int)] = []
        var refused: [String] = []
        for name in names.sorted() {
            let path = directory.appending(path: name).path
            if name.hasPrefix("."), name.hasSuffix(".tmp") {
                unlink(path)
                continue
            }
            guard name.hasSuffix(".lkob") else { continue }
            // Past the hard cap a file is not one the outbox wrote: it is never read.
            let reading = DiskFile.contents(atPath: path, limit: max(maximumSize, Self.largestFile))
            switch reading {
            case .missing: continue
            case .unavailable(let reason):
                // Left for a later start: a locked device loses no write.
                log("could not read outbox file \(name): \(reason)")
                continue
            case .refused, .contents: break
            }
            guard case .contents(let contents) = reading,
                let record = OutboxRecord(fileContents: contents), record.fileName == name
            else {
                log("removed unreadable outbox file \(name)")
                unlink(path)
                refused.append(name)
                continue
            }
            records.append((record, contents.count))
        }
        return (records, refused)
    }
}
