import Dispatch
import Foundation
import LoadingKit
import LoadingKitTesting

/// A `Loading` list of posts that logs every value configured and every cancellation.
@MainActor
final class PostsScreen: Loading {
    let loading = LoadingCore<[Post]>()
    let webservice: Webservice
    let loadingClock: any Clock<Duration>
    var maxAge: Duration?
    var revalidationInterval: Duration?
    private(set) var configured: [[Int]] = []
    private(set) var cancellations = 0
    private(set) var failures: [LoadingError] = []
    private(set) var stateChanges = 0

    init(webservice: Webservice, clock: any Clock<Duration> = ContinuousClock()) {
        self.webservice = webservice
        self.loadingClock = clock
    }

    /// Called after each value is configured.
    var onConfigure: (() -> Void)?

    func configure(value: [Post]) {
        configured.append(value.map(\.id))
        onConfigure?()
    }

    func loadingStateDidChange(
        from oldState: LoadingState<[Post]>,
        to newState: LoadingState<[Post]>
    ) {
        stateChanges += 1
    }

    /// Called after each cancellation is recorded.
    var onCancellation: (() -> Void)?

    func loadWasCancelled() {
        cancellations += 1
        onCancellation?()
    }

    func loadDidFail(_ error: LoadingError) {
        failures.append(error)
    }

    /// The identifiers of the content.
    var ids: [Int]? { loadingState.content?.map(\.id) }
}

/// Blocks the calling thread until `semaphore` is signalled: a test uses it to keep
/// the main actor busy while work lands elsewhere.
func blockUntilSignalled(_ semaphore: DispatchSemaphore) {
    semaphore.wait()
}
