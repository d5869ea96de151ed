import Foundation

/// A value that threads share behind a lock.
///
/// It wraps `NSLock` (a pthread mutex) rather than `Synchronization.Mutex`: on
/// Linux with Swift 6.3.1, ThreadSanitizer does not see `Mutex`'s synchronization
/// and reports every guarded access as a race, while it understands pthread mutexes.
package final class Locked<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()

    /// Guards `value`.
    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value while holding the lock.
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
