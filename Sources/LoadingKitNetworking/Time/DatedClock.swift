import Foundation

/// A clock that also knows the wall-clock date, which the kit reads for HTTP dates
/// such as `Retry-After: Fri, 31 Dec 2027 23:59:59 GMT`.
///
/// The kit takes any `Clock<Duration>`; one that is not a `DatedClock` is paired with
/// the system date. `ContinuousClock` and `ManualClock` (from `LoadingKitTesting`)
/// are dated clocks:
///
/// ```swift
/// let clock = ManualClock(date: Date(timeIntervalSince1970: 1_800_000_000))
/// clock.advance(by: .seconds(5))
/// clock.currentDate  // five seconds after the starting date
/// ```
public protocol DatedClock: Clock<Duration> {
    /// The current wall-clock date, moving with the clock's time.
    var currentDate: Date { get }
}

extension ContinuousClock: DatedClock {
    /// `Date()`.
    public var currentDate: Date { Date() }
}
