import Foundation

extension URL {
    /// Whether the URL has the scheme, host and port of `other`: the same origin.
    package func hasSameOrigin(as other: URL) -> Bool {
        scheme?.lowercased() == other.scheme?.lowercased()
            && host?.lowercased() == other.host?.lowercased()
            && (port ?? defaultPort) == (other.port ?? other.defaultPort)
    }

    private var defaultPort: Int? {
        switch scheme?.lowercased() {
        case "http": 80
        case "https": 443
        default: nil
        }
    }

    /// The URL without user, password, query or fragment: what descriptions show.
    package var redacted: String {
        guard var components = URLComponents(url: self, resolvingAgainstBaseURL: true) else {
            return "<url>"
        }
        components.user = nil
        components.password = nil
        components.query = nil
        components.fragment = nil
        return components.string ?? "<url>"
    }
}
