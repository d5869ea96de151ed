import Foundation
import Testing

@testable import LoadingKit

@Suite("LoadingState", .timeLimit(.minutes(1)))
struct LoadingStateTests {
    func state(
        content: [Int]? = nil,
        activity: LoadingActivity = .idle,
        error: LoadingError? = nil
    ) -> LoadingState<[Int]> {
        var state = LoadingState<[Int]>()
        if let content {
            state.apply(content, isEmpty: content.isEmpty, at: instant)
        }
        if let error {
            state.fail(error, at: instant)
        }
        if activity != .idle {
            state.begin(activity)
        }
        return state
    }

    let failure = LoadingError.webservice(.cancelled)
    let instant = ContinuousClock.now

    @Test("the unloaded state shows nothing")
    func unloaded() {
        let unloaded = LoadingState<[Int]>()
        #expect(unloaded.placeholder == .blank)
        #expect(!unloaded.hasContent && !unloaded.isLoading)
        #expect(unloaded.progress == nil && unloaded.loadedAt == nil && unloaded.error == nil)
    }

    @Test(
        "the placeholder follows content first, then activity, then error",
        arguments: [
            (nil, LoadingActivity.loading, false, LoadingState<[Int]>.Placeholder.loading),
            (nil, .reloading, false, .blank),
            (nil, .idle, true, .error(.webservice(.cancelled))),
            (nil, .loading, true, .loading),
            ([1], .idle, true, .content),
            ([1], .loading, false, .content),
            ([1], .refreshing, true, .content),
            ([], .idle, false, .empty),
            ([], .idle, true, .empty),
            ([], .loading, false, .loading),
            ([], .loadingNextPage, false, .empty),
        ] as [([Int]?, LoadingActivity, Bool, LoadingState<[Int]>.Placeholder)]
    )
    func placeholder(
        content: [Int]?,
        activity: LoadingActivity,
        failed: Bool,
        expected: LoadingState<[Int]>.Placeholder
    ) {
        #expect(
            state(content: content, activity: activity, error: failed ? failure : nil).placeholder
                == expected
        )
    }

    @Test("a state is a plain value: equal when everything it tells is")
    func equality() {
        #expect(state(content: [1], activity: .loading) == state(content: [1], activity: .loading))
        #expect(state(content: [1]) != state(content: [2]))
        #expect(state(content: [1]) != state(content: [1], activity: .reloading))
    }

    @Test("errors read well")
    func errorDescriptions() {
        #expect(LoadingError.rejected("too old").description == "Rejected: too old")
        #expect(LoadingError.webservice(.cancelled).description == "Cancelled")
        #expect(LoadingActivity.loadingNextPage.description == "loading next page")
    }
}
