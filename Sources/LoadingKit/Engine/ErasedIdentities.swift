/// Identifiers of any `Identifiable` items. Only the loader's main-actor code reads or
/// changes them, always through the runtime's lock.
struct ErasedIdentities: @unchecked Sendable {
    var set: Set<AnyHashable>
}
