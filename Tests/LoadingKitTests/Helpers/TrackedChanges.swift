import LoadingKitTesting
import Observation

/// Runs `body` as a view's body runs under observation, and counts the changes
/// observation then reports: what would make that view draw again.
///
/// ```swift
/// let (task, changes) = trackingChanges { screen.startLoading(resource: next) }
/// await task.finish()
/// #expect(changes.value == 0)
/// ```
///
/// - Parameter body: What the view's body does.
/// - Returns: What `body` returned, and the count of changes reported after it.
@MainActor
func trackingChanges<Result>(
    of body: () -> Result
) -> (result: Result, changes: CounterSignal) {
    let changes = CounterSignal()
    let result = withObservationTracking(body) {
        changes.increment()
    }
    return (result, changes)
}
