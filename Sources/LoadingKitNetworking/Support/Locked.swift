import Foundation

/// A value that threads share behind a lock.
///
/// The value and its pthread mutex live in one allocation: creating one costs a
/// single object, where `NSLock` added an object and a separate mutex. Not
/// `Synchronization.Mutex`: on Linux with Swift 6.3.1, ThreadSanitizer does not see
/// `Mutex`'s synchronization and reports every guarded access as a race, while it
/// understands pthread mutexes. Copies share the value.
package struct Locked<Value>: @unchecked Sendable {
    private let storage: Storage

    /// Guards `value`.
    package init(_ value: Value) {
        storage = Storage.holding(value)
    }

    /// Runs `body` with the value while holding the lock.
    ///
    /// Unlocked on each way out rather than in a `defer`, which compiles to a function
    /// of its own called after `body`: a lock is one call in and one out.
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try storage.withUnsafeMutablePointers { value, mutex in
            pthread_mutex_lock(mutex)
            do {
                let result = try body(&value.pointee)
                pthread_mutex_unlock(mutex)
                return result
            } catch {
                pthread_mutex_unlock(mutex)
                throw error
            }
        }
    }

    /// The value as the buffer's header, which the buffer destroys, and the mutex as
    /// its one element.
    private final class Storage: ManagedBuffer<Value, pthread_mutex_t> {
        /// A buffer holding `value`, its mutex initialised.
        static func holding(_ value: Value) -> Storage {
            let buffer = create(minimumCapacity: 1) { _ in value }
            buffer.withUnsafeMutablePointerToElements { _ = pthread_mutex_init($0, nil) }
            return unsafeDowncast(buffer, to: Storage.self)
        }

        /// Destroys the mutex; the buffer destroys the value after.
        deinit {
            _ = withUnsafeMutablePointerToElements { pthread_mutex_destroy($0) }
        }
    }
}
