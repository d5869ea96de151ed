extension LoadingState: CustomStringConvertible {
    /// What the state shows, in one line, without the content itself: "content (idle)",
    /// "loading", "error: Bad status 503 for GET https://…/feed (content kept)",
    /// "empty (refreshing)".
    public var description: String {
        var parts: [String] = []
        if let error {
            parts.append("error: \(error)")
        }
        if hasContent {
            parts.append(isEmpty ? "empty" : isPreviousContent ? "previous content" : "content")
        } else if error == nil {
            parts.append(isLoading ? "no content yet" : "unloaded")
        }
        var notes = [activity.description]
        if error != nil, hasContent {
            notes.append("content kept")
        }
        if let progress {
            notes.append("\(Int((progress * 100).rounded())) %")
        }
        if wasCancelled {
            notes.append("cancelled")
        }
        if let stream {
            notes.append("stream \(stream)")
        }
        return parts.joined(separator: ", ") + " (" + notes.joined(separator: ", ") + ")"
    }
}
