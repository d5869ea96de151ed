import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension WebserviceError: CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// A one-line account of the failure: its kind, the status or coding path, the
    /// method and the URL without query, fragment or user — never a header value or
    /// text of the body, which stay available on the failure values.
    public var description: String {
        switch self {
        case .transport(let failure):
            "Transport failure\(Self.target(failure.method, failure.url)): \(failure.message)"
        case .badStatus(let failure):
            "Bad status \(failure.statusCode)\(Self.target(failure.method, failure.url))"
        case .decoding(let failure):
            [
                "Decoding failed",
                failure.describedPath.isEmpty ? "" : " at \(failure.describedPath)",
                Self.target(failure.method, failure.url),
                failure.expectation.isEmpty ? "" : ": \(failure.expectation)",
            ].joined()
        case .cancelled:
            "Cancelled"
        case .responseTooLarge(let failure):
            "Response larger than the limit of \(failure.limit) bytes"
                + Self.target(failure.method, failure.url)
        case .notModifiedWithoutCache(let url):
            "Not modified\(Self.target(nil, url)), but no earlier value is known"
        case .queued(let write):
            "Queued\(Self.target(write.method, write.url)): sent when the server can be reached"
        case .outboxRefused(let refusal):
            "Not kept: \(refusal)"
        case .authentication(let failure):
            "Not authenticated: \(failure)"
        }
    }

    /// The same as ``description``, so that `debugPrint` and `String(reflecting:)`
    /// print no secret either.
    public var debugDescription: String { description }

    /// A mirror with the ``description`` only, so that `dump` prints no secret either.
    public var customMirror: Mirror {
        Mirror(self, children: ["description": description], displayStyle: .enum)
    }

    /// ` for GET https://host/path`, or as much of it as is known.
    private static func target(_ method: HTTPMethod?, _ url: URL?) -> String {
        switch (method, url) {
        case (let method?, let url?): " for \(method.rawValue) \(url.redacted)"
        case (nil, let url?): " from \(url.redacted)"
        case (let method?, nil): " for \(method.rawValue)"
        case (nil, nil): ""
        }
    }
}

extension WebserviceError.TransportFailure: CustomStringConvertible,
    CustomDebugStringConvertible, CustomReflectable
{
    /// The same as the error's description: no user, password, query or fragment.
    public var description: String { WebserviceError.transport(self).description }
    /// The same as ``description``.
    public var debugDescription: String { description }
    /// A mirror with the ``description`` only: `underlying` can name the whole URL.
    public var customMirror: Mirror { Mirror(self, children: ["description": description]) }
}

extension WebserviceError.StatusFailure: CustomStringConvertible,
    CustomDebugStringConvertible, CustomReflectable
{
    /// The same as the error's description: no header value or text of the body.
    public var description: String { WebserviceError.badStatus(self).description }
    /// The same as ``description``.
    public var debugDescription: String { description }
    /// A mirror with the ``description`` only: headers and body can hold secrets.
    public var customMirror: Mirror { Mirror(self, children: ["description": description]) }
}

extension WebserviceError.DecodingFailure: CustomStringConvertible,
    CustomDebugStringConvertible, CustomReflectable
{
    /// The same as the error's description: no text of the body.
    public var description: String { WebserviceError.decoding(self).description }
    /// The same as ``description``.
    public var debugDescription: String { description }
    /// A mirror with the ``description`` only: the message can quote the body.
    public var customMirror: Mirror { Mirror(self, children: ["description": description]) }
}
