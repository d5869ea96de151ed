/// A stored entry a local edit changed, with the version it changed: a loader showing
/// that version takes the edit's version, one showing an older one shows the entry.
package struct EditedEntry: Sendable {
    /// The version of the entry the edit read.
    package let previousVersion: UInt64
    /// The entry after the edit.
    package let entry: StoredEntry

    /// An entry `entry` that a local edit made of version `previousVersion`.
    package init(previousVersion: UInt64, entry: StoredEntry) {
        self.previousVersion = previousVersion
        self.entry = entry
    }
}
