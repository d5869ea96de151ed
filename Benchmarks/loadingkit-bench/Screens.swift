import Foundation
import LoadingKit

/// An item of the benchmark lists.
struct BenchItem: Codable, Sendable, Identifiable, Equatable {
    let id: Int
    let title: String

    /// `count` items, numbered from 0: 20 of them encode to about 1 KB of JSON.
    static func list(count: Int) -> [BenchItem] {
        (0..<count).map { BenchItem(id: $0, title: "Item number \($0) with some text") }
    }
}

/// A `Loading` conformer that keeps no copy of its content.
@MainActor
final class BenchScreen<Value: Sendable>: Loading {
    let loading = LoadingCore<Value>()
    let webservice: Webservice
    private(set) var configured = 0

    init(webservice: Webservice) {
        self.webservice = webservice
    }

    func configure(value: Value) {
        configured += 1
    }
}

/// A plain conformer that reads the thread's CPU clock where the kit's apply section
/// starts (`validate(_:)`) and ends (`loadingStateDidChange(from:to:)`), adding up
/// what it takes.
@MainActor
final class TimedScreen: Loading {
    let loading = LoadingCore<[BenchItem]>()
    let webservice: Webservice
    /// The CPU seconds of the apply sections since it was last set to zero.
    var applied = 0.0
    private(set) var applyCount = 0
    private var applyStart: Double?

    init(webservice: Webservice) {
        self.webservice = webservice
    }

    func validate(_ value: [BenchItem]) throws {
        applyStart = Measure.threadCPUTime()
    }

    func configure(value: [BenchItem]) {}

    func loadingStateDidChange(
        from oldState: LoadingState<[BenchItem]>,
        to newState: LoadingState<[BenchItem]>
    ) {
        guard let start = applyStart else { return }
        applied += Measure.threadCPUTime() - start
        applyCount += 1
        applyStart = nil
    }
}

/// A paginated list that keeps no copy of its content.
@MainActor
final class BenchPages: Paginating {
    let loading = LoadingCore<[BenchItem]>()
    let webservice: Webservice

    init(webservice: Webservice) {
        self.webservice = webservice
    }

    func configure(value: [BenchItem]) {}

    func resource(forPage page: Int?) -> Resource<Page<BenchItem, Int>> {
        .pageNumber(url: URL(string: "https://bench.invalid/items")!, page: page, size: 100)
    }
}

/// A refreshable list, for its merge.
@MainActor
final class BenchFeed: Refreshable {
    let loading = LoadingCore<[BenchItem]>()

    func configure(value: [BenchItem]) {}

    func refreshResource(newerThan first: BenchItem?) -> Resource<[BenchItem]> {
        Resource(url: URL(string: "https://bench.invalid/feed")!)
    }
}

/// The state a hand-written screen keeps.
@MainActor
final class BaselineState<Value: Sendable> {
    var value: Value?
    var isLoading = false
    var error: (any Error)?

    /// What a screen written by hand does for one load: sets its loading flag, gets
    /// the value off the main actor, hops back, sets the content and clears the flag
    /// and the error.
    func load(_ fetch: @escaping @Sendable () async throws -> Value) async {
        isLoading = true
        do {
            value = try await Task.detached { try await fetch() }.value
            error = nil
        } catch {
            self.error = error
        }
        isLoading = false
    }
}

/// A screen that tells when it is first configured.
@MainActor
final class FirstValueScreen: Loading {
    let loading = LoadingCore<[BenchItem]>()
    let webservice: Webservice
    /// Resumed once, when the screen is first configured or its load fails.
    var shown: CheckedContinuation<Void, Never>?
    /// The wall time at which the screen was first configured.
    private(set) var shownAt: Double?

    init(webservice: Webservice) {
        self.webservice = webservice
    }

    func configure(value: [BenchItem]) {
        if shownAt == nil {
            shownAt = Measure.wallTime()
        }
        shown?.resume()
        shown = nil
    }

    func loadDidFail(_ error: LoadingError) {
        shown?.resume()
        shown = nil
    }
}
