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
        guard var components = withoutCredentials else { return "<url>" }
        components.query = nil
        return components.string ?? "<url>"
    }

    /// The URL as event lines show it: no user, password or fragment, and query values
    /// only when `showingQueryValues`.
    package func logged(showingQueryValues: Bool) -> String {
        guard var components = withoutCredentials else { return "<url>" }
        guard !showingQueryValues, let items = components.percentEncodedQueryItems else {
            return components.string ?? "<url>"
        }
        components.query = nil
        let names = items.map { $0.value == nil ? $0.name : "\($0.name)=…" }
        return (components.string ?? "<url>") + "?" + names.joined(separator: "&")
    }

    /// `scheme://host:port`: the origin alone.
    package var origin: String {
        var components = URLComponents()
        components.scheme = scheme
        components.host = host
        components.port = port
        return components.string ?? "<origin>"
    }

    /// The URL's components without user, password or fragment.
    private var withoutCredentials: URLComponents? {
        guard var components = URLComponents(url: self, resolvingAgainstBaseURL: true) else {
            return nil
        }
        components.user = nil
        components.password = nil
        components.fragment = nil
        return components
    }
}
