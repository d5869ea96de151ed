import Foundation
import Testing

@testable import LoadingKit

/// Each transition of ``LoadingState`` as a table: the state before, the event, the
/// state after. The transitions are the only writes of a state.
@Suite("LoadingState transitions", .timeLimit(.minutes(1)))
struct LoadingStateTransitionTests {
    typealias State = LoadingState<[Int]>

    /// Everything a state tells, as one comparable value.
    struct Fields: Equatable, CustomStringConvertible {
        var content: [Int]? = nil
        var activity = LoadingActivity.idle
        var error: LoadingError? = nil
        var isEmpty = false
        var loadedAt: ContinuousClock.Instant? = nil
        var failedAt: ContinuousClock.Instant? = nil
        var progress: Double? = nil
        var wasCancelled = false
        var isPreviousContent = false

        init(
            content: [Int]? = nil,
            activity: LoadingActivity = .idle,
            error: LoadingError? = nil,
            isEmpty: Bool = false,
            loadedAt: ContinuousClock.Instant? = nil,
            failedAt: ContinuousClock.Instant? = nil,
            progress: Double? = nil,
            wasCancelled: Bool = false,
            isPreviousContent: Bool = false
        ) {
            self.content = content
            self.activity = activity
            self.error = error
            self.isEmpty = isEmpty
            self.loadedAt = loadedAt
            self.failedAt = failedAt
            self.progress = progress
            self.wasCancelled = wasCancelled
            self.isPreviousContent = isPreviousContent
        }

        init(_ state: State) {
            self.init(
                content: state.content,
                activity: state.activity,
                error: state.error,
                isEmpty: state.isEmpty,
                loadedAt: state.loadedAt,
                failedAt: state.failedAt,
                progress: state.progress,
                wasCancelled: state.wasCancelled,
                isPreviousContent: state.isPreviousContent
            )
        }

        var description: String {
            "content \(String(describing: content)), \(activity), error \(String(describing: error)), "
                + "empty \(isEmpty), progress \(String(describing: progress)), cancelled \(wasCancelled), "
                + "previous \(isPreviousContent)"
        }
    }

    static let t0 = ContinuousClock.now
    static let t1 = t0.advanced(by: .seconds(1))
    static let failure = LoadingError.rejected("no")

    /// The states the tables start from, each made by transitions.
    static var unloaded: State { State() }
    static var loading: State { with(unloaded) { $0.begin(.loading) } }
    static var shown: State { with(unloaded) { $0.apply([1, 2], isEmpty: false, at: t0) } }
    static var reloading: State { with(shown) { $0.begin(.reloading) } }
    static var progressing: State { with(reloading) { $0.progress(0.5) } }
    static var failedShown: State { with(reloading) { $0.fail(failure, at: t1) } }
    static var failedBlank: State { with(loading) { $0.fail(failure, at: t1) } }
    static var cancelled: State { with(reloading) { $0.cancel() } }
    /// Another resource loading, the content of the one before kept shown.
    static var previous: State {
        with(shown) { $0.begin(.loading, forAnotherResource: true, keepingPrevious: true) }
    }

    static func with(_ state: State, _ transition: (inout State) -> Void) -> State {
        var state = state
        transition(&state)
        return state
    }

    /// Checks every row: `transition` applied to `before` gives `after`.
    func check(
        _ rows: [(String, State, Fields)],
        _ transition: (inout State) -> Void,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for (name, before, after) in rows {
            let made = Self.with(before, transition)
            #expect(Fields(made) == after, "\(name)", sourceLocation: sourceLocation)
        }
    }

    @Test("begin shows the activity, keeps the content, and clears it for another resource")
    func begin() {
        let t0 = Self.t0
        let t1 = Self.t1
        let failure = Self.failure
        check(
            [
                ("unloaded", Self.unloaded, Fields(activity: .reloading)),
                ("shown", Self.shown, Fields(content: [1, 2], activity: .reloading, loadedAt: t0)),
                (
                    "failed, content kept", Self.failedShown,
                    Fields(
                        content: [1, 2],
                        activity: .reloading,
                        error: failure,
                        loadedAt: t0,
                        failedAt: t1
                    )
                ),
                (
                    "cancelled", Self.cancelled,
                    Fields(content: [1, 2], activity: .reloading, loadedAt: t0)
                ),
                (
                    "progressing", Self.progressing,
                    Fields(content: [1, 2], activity: .reloading, loadedAt: t0)
                ),
            ]
        ) { $0.begin(.reloading) }
        check(
            [
                ("shown", Self.shown, Fields(activity: .loading)),
                ("failed", Self.failedShown, Fields(activity: .loading)),
                ("cancelled", Self.cancelled, Fields(activity: .loading)),
            ]
        ) { $0.begin(.loading, forAnotherResource: true) }
    }

    @Test(
        "begin for another resource keeping the previous content marks it previous and clears only the error"
    )
    func beginKeepingPrevious() {
        let t0 = Self.t0
        check(
            [
                (
                    "shown", Self.shown,
                    Fields(
                        content: [1, 2],
                        activity: .loading,
                        loadedAt: t0,
                        isPreviousContent: true
                    )
                ),
                (
                    "failed", Self.failedShown,
                    Fields(
                        content: [1, 2],
                        activity: .loading,
                        loadedAt: t0,
                        isPreviousContent: true
                    )
                ),
                ("unloaded: nothing to keep", Self.unloaded, Fields(activity: .loading)),
            ]
        ) { $0.begin(.loading, forAnotherResource: true, keepingPrevious: true) }
        check([("previous, not kept again", Self.previous, Fields(activity: .loading))]) {
            $0.begin(.loading, forAnotherResource: true)
        }
    }

    @Test("previous content stays marked until a value of the new resource is shown")
    func previousContent() {
        let (t0, t1, failure) = (Self.t0, Self.t1, Self.failure)
        check([("applied", Self.previous, Fields(content: [3], loadedAt: t1))]) {
            $0.apply([3], isEmpty: false, at: t1)
        }
        check([
            (
                "shown from the store", Self.previous,
                Fields(content: [7], activity: .loading, loadedAt: t1)
            )
        ]) {
            $0.show([7], isEmpty: false, loadedAt: t1, answersFailure: true)
        }
        check(
            [
                (
                    "failed", Self.previous,
                    Fields(
                        content: [1, 2],
                        error: failure,
                        loadedAt: t0,
                        failedAt: t1,
                        isPreviousContent: true
                    )
                )
            ]
        ) { $0.fail(failure, at: t1) }
        check(
            [
                (
                    "cancelled", Self.previous,
                    Fields(
                        content: [1, 2],
                        loadedAt: t0,
                        wasCancelled: true,
                        isPreviousContent: true
                    )
                )
            ]
        ) { $0.cancel() }
    }

    @Test("progress records the fraction and nothing else")
    func progress() {
        check(
            [
                ("loading", Self.loading, Fields(activity: .loading, progress: 0.25)),
                (
                    "reloading", Self.reloading,
                    Fields(
                        content: [1, 2],
                        activity: .reloading,
                        loadedAt: Self.t0,
                        progress: 0.25
                    )
                ),
            ]
        ) { $0.progress(0.25) }
    }

    @Test("apply shows the value, clears the error and the activity, and records the time")
    func apply() {
        let after = Fields(content: [3], loadedAt: Self.t1)
        check(
            [
                ("loading", Self.loading, after),
                ("progressing", Self.progressing, after),
                ("failed with content", Self.failedShown, after),
                ("failed blank", Self.failedBlank, after),
            ]
        ) { $0.apply([3], isEmpty: false, at: Self.t1) }
        check([("empty", Self.loading, Fields(content: [], isEmpty: true, loadedAt: Self.t1))]) {
            $0.apply([], isEmpty: true, at: Self.t1)
        }
    }

    @Test("applyStaged keeps the content staged in place and records it as loaded")
    func applyStaged() {
        check(
            [
                (
                    "a page appended", Self.with(Self.shown) { $0.begin(.loadingNextPage) },
                    Fields(content: [1, 2, 3], loadedAt: Self.t1)
                )
            ]
        ) { state in
            state.stage { $0?.append(3) }
            state.applyStaged(isEmpty: false, at: Self.t1)
        }
    }

    @Test("confirm keeps the content and records it current")
    func confirm() {
        check(
            [
                ("reloading", Self.reloading, Fields(content: [1, 2], loadedAt: Self.t1)),
                ("failed", Self.failedShown, Fields(content: [1, 2], loadedAt: Self.t1)),
            ]
        ) { $0.confirm(at: Self.t1) }
    }

    @Test("show puts a stored value on screen and leaves what is in flight")
    func show() {
        check(
            [
                (
                    "loading", Self.loading,
                    Fields(content: [7], activity: .loading, loadedAt: Self.t1)
                ),
                (
                    "failed blank", Self.failedBlank,
                    Fields(content: [7], loadedAt: Self.t1)
                ),
            ]
        ) { $0.show([7], isEmpty: false, loadedAt: Self.t1, answersFailure: true) }
        // A value received before the failure — a change taken back — leaves it shown.
        check([
            (
                "failed", Self.failedShown,
                Fields(content: [7], error: Self.failure, loadedAt: Self.t0, failedAt: Self.t1)
            )
        ]) { $0.show([7], isEmpty: false, loadedAt: Self.t0, answersFailure: false) }
    }

    @Test("edit replaces the content and nothing else")
    func edit() {
        check(
            [
                (
                    "reloading", Self.reloading,
                    Fields(content: [], activity: .reloading, isEmpty: true, loadedAt: Self.t0)
                )
            ]
        ) { $0.edit([], isEmpty: true) }
    }

    @Test("fail keeps the content, records the error or leaves it elsewhere, and ends the activity")
    func fail() {
        let t0 = Self.t0
        let t1 = Self.t1
        check(
            [
                ("loading", Self.loading, Fields(error: Self.failure, failedAt: t1)),
                (
                    "progressing", Self.progressing,
                    Fields(content: [1, 2], error: Self.failure, loadedAt: t0, failedAt: t1)
                ),
            ]
        ) { $0.fail(Self.failure, at: t1) }
        check(
            [
                (
                    "a page's failure", Self.reloading,
                    Fields(content: [1, 2], loadedAt: t0, failedAt: t1)
                )
            ]
        ) { $0.fail(nil, at: t1) }
    }

    @Test("cancel ends the activity and says so, keeping everything else")
    func cancel() {
        check(
            [
                ("loading", Self.loading, Fields(wasCancelled: true)),
                (
                    "progressing", Self.progressing,
                    Fields(content: [1, 2], loadedAt: Self.t0, wasCancelled: true)
                ),
            ]
        ) { $0.cancel() }
    }

    @Test("reset returns to the unloaded state from anywhere")
    func reset() {
        check(
            [
                ("progressing", Self.progressing, Fields()),
                ("failed", Self.failedShown, Fields()),
                ("cancelled", Self.cancelled, Fields()),
            ]
        ) { $0.reset() }
    }
}
