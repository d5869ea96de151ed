extension PaginationState: CustomStringConvertible {
    /// The window in one line: "3 pages, 30 items of 120, more to load", "no pages".
    public var description: String {
        guard hasFirstPage else { return "no pages" }
        var parts = ["\(pagesLoaded) \(pagesLoaded == 1 ? "page" : "pages")"]
        let items = "\(itemCount) \(itemCount == 1 ? "item" : "items")"
        parts.append(totalCount.map { "\(items) of \($0)" } ?? items)
        if hasPreviousPages {
            parts.append("earlier pages to load")
        }
        parts.append(hasMorePages ? "more to load" : "at the end")
        if isNextPageDeferred {
            parts.append("next page waiting")
        }
        if let pageError {
            parts.append("next page failed: \(pageError)")
        }
        return parts.joined(separator: ", ")
    }
}
