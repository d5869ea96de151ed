@testable import LoadingKit

/// What tests read of the kit's internals, kept out of the production types.
extension LoadingCore {
    /// How many observers of the states are registered.
    var observerCount: Int { guarded.withLock { $0.observers.count } }
}

extension SharedValues {
    /// How many registrations are kept, live or not swept yet.
    var registrationCount: Int { observers.values.reduce(0) { $0 + $1.count } }
}
