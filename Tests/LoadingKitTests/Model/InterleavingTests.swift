import Foundation
import LoadingKitTesting
import Testing

@testable import LoadingKit

/// Randomized interleavings of loads, refreshes, pages, cancellations, releases and
/// responses in any order, checked step by step against the rules of DESIGN.md.
///
/// `LOADINGKIT_MODEL_SEQUENCES` sets how many seeded sequences run (CI runs 10,000);
/// a failure prints its seed, and `LOADINGKIT_MODEL_SEED` replays one (see
/// ``SeededSequences``).
@MainActor
@Suite("Randomized interleavings", .timeLimit(.minutes(30)))
struct InterleavingTests {
    @Test("seeded random sequences keep every invariant")
    func randomSequences() async throws {
        await SeededSequences.expectNoViolations("interleavings") { seed in
            var run = ModelRun(seed: seed)
            return await run.run()
        }
    }
}

/// One seeded sequence.
@MainActor
struct ModelRun {
    let seed: UInt64
    private let random: RandomSource
    /// What follows the answer to a request: its operation's next request, or its end.
    private let tracker = OperationTracker()
    /// Tells when the fetch of a load that had ended finished (`discarded`).
    private let recorder = EventRecorder()
    /// How many answers to superseded requests were given.
    private var discards = 0
    private let transport: HeldTransport
    private var server = ModelServer()
    private let log = ModelLog()
    private var feed: ModelFeed?
    /// The tasks waiting on each request.
    private var waiting: [Int: [LoadTask]] = [:]
    /// The pages asked for while an operation was in flight.
    private var held = HeldPages()
    /// The requests of the operation in flight.
    private var current: Set<Int> = []
    private var superseded: Set<Int> = []
    private var violations: [String] = []
    private var steps: [String] = []

    init(seed: UInt64) {
        self.seed = seed
        random = .seeded(seed &* 0x9E37_79B9 &+ 1)
        transport = HeldTransport(signalling: tracker.events)
        feed = ModelFeed(
            webservice: Webservice(
                transport: transport,
                configuration: .init(monitor: recorder, mutationWait: nil)
            ),
            log: log
        )
    }

    private func pick(_ count: Int) -> Int {
        min(count - 1, Int(random.next() * Double(count)))
    }

    mutating func run() async -> [String] {
        for _ in 0..<(12 + pick(24)) {
            await step()
            check()
            guard violations.isEmpty else {
                return violations.map { "\($0) after \(steps.suffix(4))" }
            }
        }
        if pick(4) == 0 {
            await release()
        }
        while let next = transport.pending.first {
            await answer(next.id, outcome: ModelServer.Outcome.allCases[pick(4)])
            check()
        }
        // Every superseded fetch ended on its answer: a discarded event more would have
        // let a wait for one return early.
        let discarded = recorder.events.count { $0.kind == .discarded }
        if feed != nil, discarded != discards {
            violations.append("\(discarded) fetches discarded for \(discards) superseded answers")
        }
        return violations.map { "\($0) after \(steps.suffix(4))" }
    }

    private mutating func step() async {
        let roll = pick(100)
        guard let feed else { return }
        switch roll {
        case 0..<39:
            let operation: ListOperation =
                switch roll {
                case 0..<10: .list([LoadPolicy.ifNeeded, .force, .background][pick(3)])
                case 10..<13: .appear
                case 13..<21: .refresh
                case 21..<33: .nextPage
                default: .previousPage
                }
            steps.append("\(operation)")
            await start(operation) { operation.start(on: feed) }
        case 39..<43:
            steps.append("cancel")
            let before = feed.loadingState
            feed.cancelLoading()
            superseded.formUnion(current)
            current = []
            if feed.loadingState.content?.map(\.id) != before.content?.map(\.id) {
                violations.append("cancellation changed the content")
            }
            if feed.loadingState.isLoading {
                violations.append("still loading after cancellation")
            }
            await dropHeldPages()
        case 43..<45:
            steps.append("reset")
            feed.resetLoading()
            superseded.formUnion(current)
            current = []
            if feed.loadingState != LoadingState() || feed.pagination.hasFirstPage {
                violations.append("a reset left \(feed.loadingState.activity) content or pages")
            }
            await dropHeldPages()
        case 45..<55:
            let count = 1 + pick(14)
            steps.append("publish \(count)")
            server.publish(count)
        default:
            guard let pending = transport.pending.randomElement(using: random) else { return }
            let outcome = ModelServer.Outcome.allCases[pick(4)]
            steps.append("answer \(pending.id) \(outcome)")
            await answer(pending.id, outcome: outcome)
        }
    }

    /// Starts an operation; one that sent a request becomes the current operation.
    private mutating func start(_ kind: ListOperation, _ operation: () -> LoadTask) async {
        guard let feed else { return }
        let flight = { feed.loading.currentOperation?.generation }
        let deferred = { kind.isDeferred(on: feed) }
        let arrivals = transport.arrivals
        switch await tracker.start(operation, flight: flight, deferred: deferred, on: transport) {
        case .sent(let task, let id):
            superseded.formUnion(current)
            current = [id]
            waiting[id, default: []].append(task)
        case .answeredOnTheWay:
            superseded.formUnion(current)
            current = []
            _ = await followHeldPages(after: arrivals)
        case .joined(let task):
            if let id = current.first {
                waiting[id, default: []].append(task)
            }
        case .deferred(let task):
            held.add(task, for: kind)
        case .skipped: break
        }
    }

    /// Waits for the pages held: a cancellation or a reset dropped them.
    private mutating func dropHeldPages() async {
        await held.finishAll()
        guard let feed else { return }
        if feed.pagination.isNextPageDeferred || feed.pagination.isPreviousPageDeferred {
            violations.append("a page still held after the load was cancelled")
        }
    }

    /// After the current operation ended: the pages held meanwhile start — one
    /// becomes the current operation, returned — or end.
    private mutating func followHeldPages(after arrivals: Int) async -> Bool {
        guard let feed, !held.isEmpty else { return false }
        let started = await tracker.follow(
            &held,
            feed: { HeldPageView(of: feed) },
            after: arrivals,
            on: transport
        )
        guard let started else { return false }
        current = [started.request]
        waiting[started.request, default: []] += started.tasks
        return true
    }

    private mutating func answer(_ id: Int, outcome: ModelServer.Outcome) async {
        guard let request = transport.pending.first(where: { $0.id == id })?.request else { return }
        let before = feed?.loadingState
        let configured = log.configured
        let response = server.answer(request, outcome)
        let known = transport.pending.map(\.id).max() ?? id
        let arrivals = transport.arrivals
        let flight = { [feed] in feed?.loading.currentOperation?.generation }
        transport.answer(id, with: response)
        let next = await tracker.settle(after: id, known: known, flight: flight, on: transport)
        let tasks = waiting.removeValue(forKey: id) ?? []
        if let following = next {
            // The operation goes on with its next request.
            if current.remove(id) != nil {
                current.insert(following)
            } else {
                superseded.insert(following)
            }
            waiting[following, default: []] += tasks
            return
        }
        for task in tasks {
            await task.finish()
        }
        let wasCurrent = current.remove(id) != nil
        guard let feed, let before else { return }
        let after = feed.loadingState
        // A page asked for meanwhile starts in the turn this response is applied.
        let pageStarted = wasCurrent ? await followHeldPages(after: arrivals) : false
        if superseded.contains(id) {
            // Its load ended when it was superseded; its fetch ends with this answer.
            discards += 1
            await recorder.waitForEvents(discards) { $0.kind == .discarded }
            if feed.loadingState != before || log.configured != configured {
                violations.append("a superseded response reached the state")
            }
            return
        }
        guard wasCurrent else { return }
        if outcome == .unavailable || outcome == .dropped {
            if after.content?.map(\.id) != before.content?.map(\.id) {
                violations.append("a failure changed the content")
            }
            let pagination = feed.pagination
            if after.error == nil && pagination.pageError == nil
                && pagination.previousPageError == nil
            {
                violations.append("a failure left no error")
            }
        }
        // Read again: a page that started and took an answer on the way has ended.
        let now = feed.loadingState
        if now.isLoading, !pageStarted {
            violations.append("still \(now.activity) after its response")
        }
    }

    /// Releases the feed with requests in flight: nothing may be called on it after.
    private mutating func release() async {
        steps.append("release")
        weak let released = feed
        log.isAlive = false
        feed = nil
        if released != nil {
            violations.append("the feed was kept alive")
        }
        superseded.formUnion(current)
        current = []
        await held.finishAll()
    }

    private mutating func check() {
        violations += log.violations
        log.violations = []
        guard let feed else { return }
        let ids = feed.loadingState.content?.map(\.id) ?? []
        if Set(ids).count != ids.count {
            violations.append("duplicate items \(ids)")
        }
        if !Set(ids).isSubset(of: server.served) {
            violations.append("items never served")
        }
        if transport.pending.filter({ current.contains($0.id) }).count > 1 {
            violations.append("more than one request of the current operation")
        }
        let pages = feed.pagination.pages
        // The head page owns the items a refresh inserted before it.
        if pages.dropFirst().reduce(0, { $0 + $1.count }) != feed.pagination.itemsAfterHead {
            violations.append("the running count of items after the head page drifted")
        }
        if !pages.isEmpty, pages.dropFirst().reduce(0, { $0 + $1.count }) > ids.count {
            violations.append("\(pages.map(\.count)) pages for \(ids.count) items")
        }
        if pages.count > feed.maxPages ?? .max {
            violations.append("\(pages.count) pages beyond the window")
        }
        if pages.isEmpty, !ids.isEmpty {
            violations.append("content without pages")
        }
        if !ids.isEmpty, feed.loadingState.placeholder != .content {
            violations.append("content hidden by \(feed.loadingState.placeholder)")
        }
        let pagination = feed.pagination
        if pagination.isNextPageDeferred || pagination.isPreviousPageDeferred,
            feed.loading.currentOperation == nil
        {
            violations.append("a page held with nothing in flight")
        }
        if feed.loadingState.isLoading != (feed.loading.currentOperation != nil) {
            violations.append(
                "activity \(feed.loadingState.activity) but flight \(String(describing: feed.loading.currentOperation?.generation))"
            )
        }
    }
}

extension RandomSource {
    /// A random element of `elements`.
    fileprivate func randomElement<T>(_ elements: [T]) -> T? {
        elements.isEmpty
            ? nil : elements[min(elements.count - 1, Int(next() * Double(elements.count)))]
    }
}

extension Array {
    fileprivate func randomElement(using source: RandomSource) -> Element? {
        source.randomElement(self)
    }
}
