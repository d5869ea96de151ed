/// A local edit as one loader applied it: what a refinement such as pages follows.
struct AppliedEdit<Content: Sendable> {
    /// The edit.
    let edit: ContentEdit<Content>
    /// The changes it made, in order.
    let changes: [ContentChange]
    /// How many items the content held before and after it.
    let countBefore: Int
    let countAfter: Int
    /// Whether this loader made the edit, rather than receiving it from another loader
    /// showing the resource: only the editor changes the stored values.
    let isOwn: Bool
}
