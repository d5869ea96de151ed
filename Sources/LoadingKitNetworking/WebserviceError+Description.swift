import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension WebserviceError: CustomStringConvertible {
    /// A one-line, readable account of the failure; it never contains header values.
    public var description: String {
        switch self {
        case .transport(let failure):
            "Transport failure\(failure.url.suffix): \(failure.message)"
        case .badStatus(let failure):
            "Bad status \(failure.statusCode)\(failure.url.suffix)\(failure.bodySummary)"
        case .decoding(let failure):
            failure.codingPath.isEmpty
                ? "Decoding failed\(failure.url.suffix): \(failure.message)"
                : "Decoding failed at \(failure.codingPath)\(failure.url.suffix): \(failure.message)"
        case .cancelled:
            "Cancelled"
        case .responseTooLarge(let limit):
            "Response larger than the limit of \(limit) bytes"
        case .notModifiedWithoutCache(let url):
            "Not modified\(url.suffix), but no earlier value is known"
        }
    }
}

extension WebserviceError.StatusFailure {
    fileprivate var bodySummary: String {
        guard let text = bodyText?.trimmingCharacters(in: .whitespacesAndNewlines),
            !text.isEmpty
        else { return "" }
        let limit = 200
        return ": " + (text.count > limit ? text.prefix(limit) + "…" : text)
    }
}

extension URL? {
    fileprivate var suffix: String {
        guard let self else { return "" }
        var components = URLComponents(url: self, resolvingAgainstBaseURL: true)
        components?.query = nil
        components?.user = nil
        components?.password = nil
        return " from \(components?.string ?? self.path)"
    }
}
