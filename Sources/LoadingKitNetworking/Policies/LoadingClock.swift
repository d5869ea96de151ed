import Foundation

/// The time the kit reads and waits on: monotonic instants for freshness and
/// backoff, and the wall-clock date for HTTP dates such as `Retry-After`.
///
/// The live clock is `ContinuousClock`; tests inject `ManualClock` from
/// `LoadingKitTesting` and move time by hand:
///
/// ```swift
/// let clock = ManualClock()
/// let webservice = Webservice(transport: mock, configuration: .init(retry: .standard, clock: clock))
/// clock.advance(by: .seconds(1))
/// ```
public protocol LoadingClock: Sendable {
    /// The current instant; it never goes backwards.
    var now: ContinuousClock.Instant { get }

    /// The current wall-clock date, for HTTP dates.
    var currentDate: Date { get }

    /// Suspends until `deadline`; throws `CancellationError` at once when the task is
    /// cancelled.
    func sleep(until deadline: ContinuousClock.Instant) async throws
}

extension ContinuousClock: LoadingClock {
    /// `Date()`.
    public var currentDate: Date { Date() }

    /// Sleeps until `deadline` with the default tolerance.
    public func sleep(until deadline: ContinuousClock.Instant) async throws {
        try await sleep(until: deadline, tolerance: nil)
    }
}
