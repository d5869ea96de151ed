import Foundation
import LoadingKit

/// The scenarios that need no network: the load cycle, pagination, merging,
/// coalescing and memory.
@MainActor
struct MockScenarios {
    let quick: Bool
    let body = try! JSONEncoder().encode((0..<10).map { BenchItem(id: $0, title: "Item \($0)") })

    /// A load → configure cycle against one detached task plus one main-actor hop.
    func mockCycle() async throws -> [Row] {
        let webservice = Webservice(transport: InstantTransport(body: body))
        let screen = BenchScreen<[BenchItem]>(webservice: webservice)
        let resource = Resource<[BenchItem]>(url: URL(string: "https://bench.invalid/items")!)
        let count = quick ? 200 : 2000
        let state = BaselineState<[BenchItem]>()
        let body = self.body
        var interleaved = Interleaved(rounds: quick ? 3 : 21)
        let decode: @Sendable () throws -> [BenchItem] = {
            try JSONDecoder().decode([BenchItem].self, from: body)
        }
        let comparison = await interleaved.compare {
            await cycles(of: screen, loading: resource, count: count)
        } baseline: {
            await Measure.time(operations: count) {
                for _ in 0..<count {
                    await state.load(decode)
                }
            }
        }
        precondition(state.value?.count == 10 && state.error == nil)
        return [
            Row(
                "mock-cycle",
                comparison,
                budget: 1.2,
                note: "load → configure vs a hand-written screen: flag, detached decode, content"
            ),
            await mainActorTime(loading: resource, on: webservice, count),
            try await listening(resource, count: count),
        ]
    }

    /// The CPU time of the kit's synchronous main-actor sections for one load of a
    /// plain conformer, measured where they run: the begin (`startLoading`'s call) and
    /// the apply (from `validate(_:)` to `loadingStateDidChange(from:to:)`, with an
    /// empty `configure(value:)`), less what reading the thread's clock costs; against
    /// the 5 µs goal. The main actor runs on a pool thread here, so each section is
    /// read on the thread that runs it.
    private func mainActorTime(
        loading resource: Resource<[BenchItem]>,
        on webservice: Webservice,
        _ count: Int
    ) async -> Row {
        let screen = TimedScreen(webservice: webservice)
        let goal = 5e-6
        var perLoad: [Double] = []
        for _ in 0..<(quick ? 3 : 21) {
            screen.applied = 0
            var begun = 0.0
            var reading = 0.0
            for _ in 0..<count {
                let start = Measure.threadCPUTime()
                let task = screen.startLoading(resource: resource, policy: .force)
                let end = Measure.threadCPUTime()
                reading -= end - Measure.threadCPUTime()
                begun += end - start
                await task.finish()
            }
            precondition(screen.applyCount > 0)
            perLoad.append((begun + screen.applied - 2 * reading) / Double(count))
        }
        let spread = Spread(perLoad)
        return Row(
            scenario: "main-actor time per load",
            metric: "cpu",
            kit: spread.median,
            baseline: goal,
            ratio: Spread(perLoad.map { $0 / goal }),
            budget: 1,
            note: "begin + apply + state change of a plain conformer, against the 5 µs goal"
        )
    }

    /// `count` forced loads of `resource` by `screen`, one after the other.
    private func cycles(
        of screen: BenchScreen<[BenchItem]>,
        loading resource: Resource<[BenchItem]>,
        count: Int
    ) async -> Sample {
        await Measure.time(operations: count) {
            for _ in 0..<count {
                await screen.load(resource: resource, policy: .force)
            }
        }
    }

    /// The load cycle with a monitor that counts events, against the same with none:
    /// what listening costs. With no monitor the kit builds no event.
    private func listening(_ resource: Resource<[BenchItem]>, count: Int) async throws -> Row {
        let counter = CountingMonitor()
        let monitored = Webservice(
            transport: InstantTransport(body: body),
            configuration: .init(monitor: counter)
        )
        let heard = BenchScreen<[BenchItem]>(webservice: monitored)
        let unheard = BenchScreen<[BenchItem]>(
            webservice: Webservice(transport: InstantTransport(body: body))
        )
        var interleaved = Interleaved(rounds: quick ? 3 : 21)
        let comparison = await interleaved.compare {
            await cycles(of: heard, loading: resource, count: count)
        } baseline: {
            await cycles(of: unheard, loading: resource, count: count)
        }
        precondition(counter.count > 0)
        return Row(
            "events: a counting monitor / none",
            comparison,
            budget: 1.1,
            note: "the load cycle with a monitor hearing its events vs with none"
        )
    }

    /// Appending page 10 against appending page 10,000.
    func paginationScaling() async throws -> [Row] {
        let far = quick ? 1000 : 10_000
        let near = BenchPages(webservice: Webservice(transport: PageTransport()))
        let deep = BenchPages(webservice: Webservice(transport: PageTransport()))
        await near.loadFirstPage()
        await deep.loadFirstPage()
        for _ in 1..<9 { await near.loadNextPage() }
        for _ in 1..<(far - 1) { await deep.loadNextPage() }
        let pagesPerRound = 20
        var interleaved = Interleaved(rounds: quick ? 3 : 21)
        let comparison = await interleaved.compare {
            await Measure.time(operations: pagesPerRound) {
                for _ in 0..<pagesPerRound { await deep.loadNextPage() }
            }
        } baseline: {
            await Measure.time(operations: pagesPerRound) {
                for _ in 0..<pagesPerRound { await near.loadNextPage() }
            }
        }
        precondition(deep.loadingState.content?.count == deep.pagination.pagesLoaded * 100)
        return [
            Row(
                "pagination-scaling page \(far) / 10",
                comparison,
                budget: 1.1,
                note: "one 100-item page appended to \(far * 100) items vs to 1,000"
            )
        ]
    }

    /// Merging 1,000 new items into 100,000 against into 10,000, per item.
    func refreshMerge() async throws -> [Row] {
        let feed = BenchFeed()
        let small = (0..<10_000).map { BenchItem(id: $0, title: "Item \($0)") }.reversed()
        let large = (0..<100_000).map { BenchItem(id: $0, title: "Item \($0)") }.reversed()
        func newer(than top: Int) -> [[BenchItem]] {
            [
                ((top + 1)...(top + 1000)).reversed().map { BenchItem(id: $0, title: "New \($0)") }
                    + Array(
                        (top - 9...top).reversed().map { BenchItem(id: $0, title: "Item \($0)") }
                    )
            ]
        }
        let smallContent = Array(small)
        let largeContent = Array(large)
        let smallPages = newer(than: 9_999)
        let largePages = newer(than: 99_999)
        let repeats = quick ? 1 : 3
        var interleaved = Interleaved(rounds: quick ? 3 : 15)
        let comparison = await interleaved.compare {
            await Measure.time(operations: repeats * 101_000) {
                for _ in 0..<repeats { _ = feed.mergeRefresh(largePages, into: largeContent) }
            }
        } baseline: {
            await Measure.time(operations: repeats * 11_000) {
                for _ in 0..<repeats { _ = feed.mergeRefresh(smallPages, into: smallContent) }
            }
        }
        return [
            Row(
                "refresh-merge 100,000 / 10,000",
                comparison,
                budget: 1.2,
                note: "cost per item touched of prepending 1,000 new items"
            )
        ]
    }

    /// 100 concurrent identical loads: the requests sent, and the time against one load.
    func coalescing() async throws -> [Row] {
        let resource = Resource<[BenchItem]>(url: URL(string: "https://bench.invalid/items")!)
        var counts: [Double] = []
        var interleaved = Interleaved(rounds: quick ? 3 : 9)
        let body = self.body
        let comparison = try await interleaved.compare {
            let transport = CountingTransport(body: body, delay: .milliseconds(20))
            let webservice = Webservice(transport: transport)
            let sample = try await Measure.time(operations: 1) {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for _ in 0..<100 {
                        group.addTask { _ = try await webservice.load(resource) }
                    }
                    try await group.waitForAll()
                }
            }
            counts.append(Double(transport.requests))
            return sample
        } baseline: {
            let webservice = Webservice(
                transport: CountingTransport(body: body, delay: .milliseconds(20))
            )
            return try await Measure.time(operations: 1) { _ = try await webservice.load(resource) }
        }
        return [
            Row(
                scenario: "coalescing 100 loads: requests",
                metric: "count",
                kit: Spread(counts).median,
                baseline: 1,
                ratio: Spread(counts),
                budget: 1,
                note: "transport requests for 100 concurrent identical loads"
            ),
            Row(
                scenario: "coalescing 100 loads: wall / one load",
                metric: "cpu",
                kit: Spread(comparison.kit.map(\.wall)).median,
                baseline: Spread(comparison.baseline.map(\.wall)).median,
                ratio: comparison.wallRatio,
                budget: 1.5,
                note: "wall time of the 100 against one load (20 ms transport)"
            ),
        ]
    }

    /// Resident memory after 1,000 and after 100,000 load cycles.
    func memory() async throws -> [Row] {
        let webservice = Webservice(transport: InstantTransport(body: body))
        let screen = BenchScreen<[BenchItem]>(webservice: webservice)
        let resource = Resource<[BenchItem]>(url: URL(string: "https://bench.invalid/items")!)
        let total = quick ? 10_000 : 100_000
        for _ in 0..<1000 {
            await screen.load(resource: resource, policy: .force)
        }
        let early = Double(Measure.residentKiB())
        for _ in 1000..<total {
            await screen.load(resource: resource, policy: .force)
        }
        let late = Double(Measure.residentKiB())
        return [
            Row(
                scenario: "memory after \(total) / 1,000 cycles",
                metric: "rss",
                kit: late,
                baseline: early,
                ratio: Spread([late / early]),
                budget: 1.05,
                note: "resident memory, /proc/self/status VmRSS"
            )
        ]
    }
}
