/// The outcome of merging the pages a refresh fetched into the current content.
///
/// ```swift
/// func mergeRefresh(_ pages: [Scores], into content: Scores) -> RefreshMerge<Scores> {
///     .merged(pages[0], .replaced)  // always show the newest scores as they are
/// }
/// ```
public enum RefreshMerge<Value: Sendable>: Sendable {
    /// Show `content`; `change` says what differs from before.
    case merged(Value, ContentChange)
    /// The pages do not reach the content shown: items may be missing between them.
    /// The refresh fetches the following page when it can; otherwise it shows
    /// `replacement` instead of leaving a hole.
    case gap(replacement: Value)
}
