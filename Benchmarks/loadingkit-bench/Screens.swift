import Foundation
import LoadingKit

/// An item of the benchmark lists.
struct BenchItem: Codable, Sendable, Identifiable, Equatable {
    let id: Int
    let title: String
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
final class BaselineState<Value> {
    var value: Value?
    var isLoading = false
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
