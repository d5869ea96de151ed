import Foundation
import LoadingKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The shared store's budgets: lookups that do not grow with the store, a second screen
/// that shows a stored value without network work, propagation linear in the screens,
/// and a cold start from the offline cache against decoding the value.
@MainActor
struct StoreScenarios {
    let quick: Bool
    let body = try! JSONEncoder().encode((0..<10).map { BenchItem(id: $0, title: "Item \($0)") })

    private func resource(_ index: Int) -> Resource<[BenchItem]> {
        Resource(url: URL(string: "https://bench.invalid/items/\(index)")!)
    }

    /// A webservice holding `count` stored values.
    private func filled(_ count: Int) async throws -> Webservice {
        let webservice = Webservice(
            transport: InstantTransport(body: body),
            configuration: .init(storage: StorageLimits(maximumEntries: count))
        )
        for index in 0..<count {
            _ = try await webservice.load(resource(index))
        }
        return webservice
    }

    func run() async throws -> [Row] {
        try await [miss(), lookup(), secondScreen(), propagation(), coldStart()]
    }

    /// A load of a resource not stored yet, whose value is then stored, against the same
    /// load with the store switched off; each load is of a new resource.
    private func miss() async throws -> Row {
        let stored = BenchScreen<[BenchItem]>(
            webservice: Webservice(transport: InstantTransport(body: body))
        )
        let unstored = BenchScreen<[BenchItem]>(
            webservice: Webservice(
                transport: InstantTransport(body: body),
                configuration: .init(storage: .disabled)
            )
        )
        let loads = quick ? 200 : 2_000
        var next = 0
        func loadNewResources(on screen: BenchScreen<[BenchItem]>) async -> Sample {
            await Measure.time(operations: loads) {
                for _ in 0..<loads {
                    next += 1
                    await screen.load(resource: resource(next))
                }
            }
        }
        var interleaved = Interleaved(rounds: quick ? 3 : 21)
        let comparison = await interleaved.compare {
            await loadNewResources(on: stored)
        } baseline: {
            await loadNewResources(on: unstored)
        }
        return Row(
            "store-miss",
            comparison,
            budget: 1.05,
            note: "a load of a new resource, stored, vs the same load with storage disabled"
        )
    }

    /// Looking up a value in a store of 10,000 against a store of 10.
    private func lookup() async throws -> Row {
        let large = try await filled(quick ? 1_000 : 10_000)
        let small = try await filled(10)
        let keys = (0..<10).map(resource)
        let lookups = quick ? 10_000 : 200_000
        var interleaved = Interleaved(rounds: quick ? 3 : 21)
        let comparison = await interleaved.compare {
            await Measure.time(operations: lookups) {
                for index in 0..<lookups { _ = large.storedValue(for: keys[index % 10]) }
            }
        } baseline: {
            await Measure.time(operations: lookups) {
                for index in 0..<lookups { _ = small.storedValue(for: keys[index % 10]) }
            }
        }
        return Row(
            "store-lookup 10k vs 10",
            comparison,
            budget: 1.1,
            note: "storedValue(for:) in a store of 10,000 vs 10 entries"
        )
    }

    /// A second screen opening a stored, fresh resource against the first screen
    /// loading it.
    private func secondScreen() async throws -> Row {
        let screens = quick ? 100 : 1_000
        let items = resource(0)
        var interleaved = Interleaved(rounds: quick ? 3 : 21)
        let comparison = try await interleaved.compare {
            let webservice = try await filled(1)
            return await Measure.time(operations: screens) {
                for _ in 0..<screens {
                    await BenchScreen<[BenchItem]>(webservice: webservice).load(resource: items)
                }
            }
        } baseline: {
            let webservice = Webservice(
                transport: InstantTransport(body: body),
                configuration: .init(storage: .disabled)
            )
            return await Measure.time(operations: screens) {
                for _ in 0..<screens {
                    await BenchScreen<[BenchItem]>(webservice: webservice).load(
                        resource: items
                    )
                }
            }
        }
        return Row(
            "store-second-screen",
            comparison,
            budget: 0.1,
            note: "a screen shown a fresh stored value (0 requests) vs one loading it"
        )
    }

    /// One new value reaching 100 live screens against 10, per screen updated.
    private func propagation() async throws -> Row {
        let crowded = try await filled(1)
        let quiet = try await filled(1)
        let many = (0..<100).map { _ in BenchScreen<[BenchItem]>(webservice: crowded) }
        let few = (0..<10).map { _ in BenchScreen<[BenchItem]>(webservice: quiet) }
        for screen in many + few {
            await screen.load(resource: resource(0))
        }
        let loads = quick ? 20 : 200
        var interleaved = Interleaved(rounds: quick ? 3 : 21)
        let comparison = await interleaved.compare {
            await Measure.time(operations: loads * many.count) {
                for _ in 0..<loads { await many[0].load(resource: resource(0), policy: .force) }
            }
        } baseline: {
            await Measure.time(operations: loads * few.count) {
                for _ in 0..<loads { await few[0].load(resource: resource(0), policy: .force) }
            }
        }
        return Row(
            "store-propagate 100 vs 10",
            comparison,
            budget: 1.1,
            note: "CPU per screen updated: one value to 100 screens vs to 10"
        )
    }

    /// A screen on a new webservice showing the persisted value against decoding it,
    /// in wall time from the start of the load to the value configured on screen (what
    /// the budget names). The kit's loop also starts each revalidation and releases each
    /// screen after it is shown; that cost is in its CPU time, not in the time to content.
    private func coldStart() async throws -> Row {
        let directory = FileManager.default.temporaryDirectory
            .appending(path: "loadingkit-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = DiskResourceStore(directory: directory)
        let warm = Webservice(
            transport: InstantTransport(body: body),
            configuration: .init(persistentStore: store)
        )
        let items = resource(0)
        _ = try await warm.load(items)
        await warm.persistPendingValues()
        let starts = quick ? 20 : 200
        let body = self.body
        let state = BaselineState<[BenchItem]>()
        var interleaved = Interleaved(rounds: quick ? 3 : 21)
        let comparison = try await interleaved.compare {
            var toContent = 0.0
            let cycle = try await Measure.time(operations: starts) {
                for _ in 0..<starts {
                    let started = Measure.wallTime()
                    let screen = FirstValueScreen(
                        webservice: Webservice(
                            transport: SilentTransport(),
                            configuration: .init(persistentStore: store)
                        )
                    )
                    await withCheckedContinuation { shown in
                        screen.shown = shown
                        screen.startLoading(resource: items)
                    }
                    guard let shownAt = screen.shownAt, screen.loadingState.content?.count == 10
                    else {
                        throw CocoaError(.fileReadCorruptFile)
                    }
                    toContent += shownAt - started
                }
            }
            return Sample(cpu: cycle.cpu, wall: toContent / Double(starts))
        } baseline: {
            var toContent = 0.0
            let cycle = try await Measure.time(operations: starts) {
                for _ in 0..<starts {
                    let started = Measure.wallTime()
                    state.value = try await Task.detached {
                        try JSONDecoder().decode([BenchItem].self, from: body)
                    }.value
                    toContent += Measure.wallTime() - started
                }
            }
            return Sample(cpu: cycle.cpu, wall: toContent / Double(starts))
        }
        return Row(
            judgedOnWall: "store-cold-start (wall)",
            comparison,
            budget: 1.0,
            note: "time to a new webservice's screen showing the persisted value vs decoding it"
        )
    }
}
