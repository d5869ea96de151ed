import Foundation
import LoadingKitTesting
import Testing

@testable import LoadingKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Randomized interleavings of two screens on one webservice switching between
/// resources — A, B, A mapped by a named transform, A mapped by an unnamed one — with
/// coalesced requests, 304s, failures, load tasks cancelled at random, invalidations,
/// and mutations that change A optimistically and then fail or are cancelled: a screen
/// only ever shows the value of the resource it last asked for (A with the optimistic
/// change only while a mutation is in flight: a failed one is taken back exactly),
/// never configures a cancelled load, and every load ends. A screen that already
/// showed the stored value of its resource when its load was cancelled goes on showing
/// the newer values other loads store — the one way a value may reach it then.
///
/// `LOADINGKIT_MODEL_SEQUENCES` and `LOADINGKIT_MODEL_SEED` work as for the
/// interleavings (see ``SeededSequences``).
@MainActor
@Suite("Randomized resource switches", .timeLimit(.minutes(30)))
struct IdentityModelTests {
    @Test("seeded random switches keep every screen on its own resource")
    func randomSwitches() async throws {
        await SeededSequences.expectNoViolations("resource switches") { seed in
            var run = SwitchRun(seed: seed)
            return await run.run()
        }
    }
}

/// One seeded sequence of switches.
@MainActor
private struct SwitchRun {
    /// The resources a screen switches between, and the content each must show.
    enum Kind: CaseIterable {
        case a, b, firstOfA, lastOfA

        var expected: [Int] {
            switch self {
            case .a: [1, 2, 3, 4, 5]
            case .b: [101, 102, 103]
            case .firstOfA: [1]
            case .lastOfA: [5]
            }
        }
    }

    private let random: RandomSource
    /// Counts request arrivals and finished tasks, for the end of a run to wait on.
    private let progress = CounterSignal()
    private let finished = CounterSignal()
    private let transport: HeldTransport
    private let screens: [PostsScreen]
    private let webservice: Webservice
    private let resources: [Kind: Resource<[Post]>]
    /// The mutations sent, and how many have not ended yet.
    private var mutations: [MutationTask<[Post]>] = []
    private let mutationsInFlight = Locked(0)
    /// How many mutations have ended, and how many the model has seen end. The taking
    /// back of a change reaches the screens in a main-actor job of its own, which runs
    /// when the executor gets to it: until no screen shows the change any more, a
    /// mutation that ended is not yet settled.
    private let mutationsEnded = Locked(0)
    private var mutationsSeenEnded = 0
    private var mutationsHaveSettled = true
    /// How many drains the end of a run waits, at most, for a change to be taken back.
    private static let settlingDrains = 1_000
    /// The kind each screen last asked for.
    private var asked: [Kind?] = [nil, nil]
    /// How many values each screen had configured at the last check.
    private var configuredCount = [0, 0]
    /// The screens whose current load's awaiting task was cancelled.
    private var cancelledLoads: Set<Int> = []
    /// The screens of `cancelledLoads` that showed their resource's stored value then.
    private var sharingScreens: Set<Int> = []
    /// Every task started, to await at the end.
    private var tasks: [LoadTask] = []
    /// The task that started each screen's current load.
    private var starters: [LoadTask?] = [nil, nil]
    /// Whether a mutation was in flight since the last check, and how many cancelled
    /// mutations (which make A stale) ended since.
    private var changedSinceCheck = false
    private let cancelledMutations = Locked(0)
    private var violations: [String] = []
    private var steps: [String] = []

    init(seed: UInt64) {
        random = .seeded(seed &* 0x2545_F491 &+ 3)
        transport = HeldTransport(signalling: progress)
        webservice = Webservice(transport: transport)
        screens = [PostsScreen(webservice: webservice), PostsScreen(webservice: webservice)]
        let a = Resource<[Post]>(url: URL(string: "https://model.test/a")!)
        resources = [
            .a: a,
            .b: Resource(url: URL(string: "https://model.test/b")!),
            .firstOfA: a.map(identifiedBy: "first") { Array($0.prefix(1)) },
            .lastOfA: a.map { Array($0.suffix(1)) },
        ]
    }

    private func pick(_ count: Int) -> Int {
        min(count - 1, Int(random.next() * Double(count)))
    }

    mutating func run() async -> [String] {
        for _ in 0..<(10 + pick(30)) {
            await step()
            check()
            guard violations.isEmpty else { return report() }
        }
        // Answers whatever arrives until every task and mutation has ended and no
        // screen loads: a request can still arrive after the others were answered (an
        // invalidation's reload, say), and a hang never ends.
        var settlingDrains = 0
        while finished.value < tasks.count || !transport.pending.isEmpty
            || mutationsInFlight.withLock({ $0 }) > 0 || !mutationsHaveSettled
            || screens.contains(where: { $0.loadingState.isLoading })
        {
            if !mutationsHaveSettled, mutationsInFlight.withLock({ $0 }) == 0 {
                settlingDrains += 1
                guard settlingDrains < Self.settlingDrains else {
                    violations.append("a change taken back never reached the screens")
                    return report()
                }
            }
            let seen = progress.value
            let pending = transport.pending
            for pending in pending {
                answer(pending, succeeding: pick(3) > 0)
            }
            if pending.isEmpty, finished.value < tasks.count {
                await progress.wait(for: seen + 1)
            } else {
                await drain()
            }
            check()
        }
        check()
        for (index, screen) in screens.enumerated() where screen.loadingState.isLoading {
            violations.append("screen \(index) still \(screen.loadingState.activity) at the end")
        }
        if screens[0].webservice.requestsInFlight != 0 {
            violations.append("requests in flight at the end")
        }
        return report()
    }

    private func report() -> [String] {
        violations.map { "\($0) after \(steps.suffix(5))" }
    }

    private mutating func step() async {
        let index = pick(2)
        let screen = screens[index]
        switch pick(13) {
        case 0..<4:
            let kind = Kind.allCases[pick(Kind.allCases.count)]
            let policy = [LoadPolicy.ifNeeded, .ifNeeded, .force, .background][pick(4)]
            steps.append("screen \(index) loads \(kind) \(policy)")
            let before = screen.loading.currentOperation?.generation
            let configuredBefore = screen.configured.count
            let task = screen.startLoading(resource: resources[kind]!, policy: policy)
            tasks.append(task)
            Task { [finished, progress] in
                await task.finish()
                finished.increment()
                progress.increment()
            }
            asked[index] = kind
            if screen.loading.currentOperation?.generation != before {
                starters[index] = task
                cancelledLoads.remove(index)
            }
            if screen.configured.count != configuredBefore {
                // The stored value of the resource, shown at once: checked below.
                cancelledLoads.remove(index)
                configuredCount[index] = configuredBefore
            }
            await Task.yield()
        case 4:
            guard let starter = starters[index], screen.loadingState.isLoading else { return }
            steps.append("screen \(index) cancels its load task")
            starter.cancel()
            cancelledLoads.insert(index)
            if screen.loading.mirrorsStoredValue {
                sharingScreens.insert(index)
            } else {
                sharingScreens.remove(index)
            }
        case 5:
            steps.append("screen \(index) cancelLoading")
            screen.cancelLoading()
            cancelledLoads.remove(index)
            if screen.loadingState.isLoading {
                violations.append("screen \(index) still loading after cancelLoading")
            }
        case 6:
            await invalidate()
        case 7:
            mutate(from: screen)
        case 8:
            guard let mutation = mutations.last(where: \.isInFlight) else { return }
            steps.append("a mutation is cancelled")
            mutation.cancel()
            await drain()
        default:
            let waiting = transport.pending
            guard !waiting.isEmpty else { return }
            let pending = waiting[pick(waiting.count)]
            let succeeds = pick(4) > 0
            steps.append("answer \(pending.request.url!.path) \(succeeds ? "ok" : "503")")
            answer(pending, succeeding: succeeds)
            await drain()
        }
    }

    /// Invalidates A, everything under the model's origin, or everything; the live
    /// screens showing what it covers reload in the background.
    private mutating func invalidate() async {
        let which = pick(3)
        steps.append("invalidate \(["A", "the origin", "all"][which])")
        let invalidation: Invalidation =
            switch which {
            case 0: .resource(resources[.a]!)
            case 1: .prefix(URL(string: "https://model.test")!)
            default: .all
            }
        webservice.invalidate(invalidation)
        noteReloads(after: invalidation)
        await drain()
    }

    /// Screens showing what `invalidation` covers reload it, with no task of the
    /// model's: they apply what that new load brings, whether their load task was
    /// cancelled before or not, and cancelling that task does not cancel the reload.
    private mutating func noteReloads(after invalidation: Invalidation) {
        for (index, screen) in screens.enumerated() {
            let subscription = screen.loading.subscription as? StoreSubscription<PostsScreen>
            if let subscription, invalidation.covers(subscription.identity) {
                cancelledLoads.remove(index)
                starters[index] = nil
            }
        }
    }

    /// Sends a mutation that adds post 999 to A at once, which the server refuses.
    private mutating func mutate(from screen: PostsScreen) {
        steps.append("a mutation changes A")
        let mutation = Mutation(
            Resource<[Post]>(url: URL(string: "https://model.test/m")!, method: .post)
        ).optimistically(updating: resources[.a]!) { posts in
            if !posts.contains(where: { $0.id == 999 }) {
                posts.append(Post(999))
            }
        }
        mutationsInFlight.withLock { $0 += 1 }
        changedSinceCheck = true
        let task = screen.startSending(mutation) {
            [mutationsInFlight, mutationsEnded, cancelledMutations, progress] task in
            mutationsEnded.withLock { $0 += 1 }
            if task.wasCancelled {
                cancelledMutations.withLock { $0 += 1 }
            }
            mutationsInFlight.withLock { $0 -= 1 }
            progress.increment()
        }
        mutations.append(task)
    }

    /// Answers `pending`: a refusal of a mutation; the list with an `ETag` per path,
    /// `304` to that tag, or 503.
    private func answer(_ pending: HeldTransport.Pending, succeeding: Bool) {
        let url = pending.request.url!
        let tag = "\"\(url.path)\""
        let (status, body): (Int, Data)
        if url.path == "/m" {
            (status, body) = (500, Data("refused".utf8))
        } else if !succeeding {
            (status, body) = (503, Data("busy".utf8))
        } else if pending.request.value(forHTTPHeaderField: "If-None-Match") == tag {
            (status, body) = (304, Data())
        } else {
            let ids = url.path == "/a" ? Kind.a.expected : Kind.b.expected
            (status, body) = (200, (try? JSONEncoder().encode(Post.list(ids))) ?? Data())
        }
        let response = HTTPURLResponse(
            url: url,
            statusCode: status,
            httpVersion: "HTTP/1.1",
            headerFields: ["ETag": tag]
        )!
        transport.answer(pending.id, with: .success((body, response)))
    }

    /// Gives the answered loads turns to reach the main actor. The invariants hold at
    /// every moment, so this only widens what is checked between steps; the end of a
    /// run awaits every task.
    private func drain() async {
        for _ in 0..<30 {
            await Task.yield()
        }
    }

    private mutating func check() {
        // A cancelled mutation makes A stale: the screens showing it reload it.
        if cancelledMutations.withLock({ $0 }) > 0 {
            cancelledMutations.withLock { $0 = 0 }
            noteReloads(after: .resource(resources[.a]!))
        }
        let ended = mutationsEnded.withLock { $0 }
        if ended > mutationsSeenEnded {
            mutationsSeenEnded = ended
            mutationsHaveSettled = false
        }
        let inFlight = mutationsInFlight.withLock { $0 } > 0
        if !inFlight, !screens.contains(where: { $0.ids?.contains(999) == true }) {
            mutationsHaveSettled = true
        }
        let changing = inFlight || !mutationsHaveSettled
        defer { changedSinceCheck = changing }
        for (index, screen) in screens.enumerated() {
            let expected = asked[index]?.expected
            // While a mutation is in flight, A may show its optimistic change; once
            // none is, exactly the server's value.
            let changed = expected.map { $0 + [999] }
            let shown = changing && asked[index] == .a ? [expected, changed] : [expected]
            let configured = changedSinceCheck && asked[index] == .a ? [expected, changed] : shown
            if let ids = screen.ids, !shown.contains(ids) {
                violations.append(
                    "screen \(index) asked for \(String(describing: asked[index])) shows \(ids)"
                )
            }
            let fresh = screen.configured.dropFirst(configuredCount[index])
            if cancelledLoads.contains(index), !sharingScreens.contains(index), !fresh.isEmpty {
                violations.append("screen \(index) configured a cancelled load")
            }
            if fresh.contains(where: { !configured.contains($0) }) {
                violations.append(
                    "screen \(index) configured \(Array(fresh)) for \(String(describing: asked[index]))"
                )
            }
            configuredCount[index] = screen.configured.count
            if cancelledLoads.contains(index), !screen.loadingState.isLoading,
                !screen.loadingState.wasCancelled
            {
                violations.append("screen \(index) ended a cancelled load without saying so")
            }
        }
    }
}
