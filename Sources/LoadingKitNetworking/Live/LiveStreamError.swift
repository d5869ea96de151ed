/// Why a live resource's stream failed or an event of it could not be used: what a
/// follower is told in ``LiveConnectionState``, and what
/// ``LiveUpdate/undecodable(_:_:)`` carries.
///
/// ```swift
/// var parser = EventStreamParser(maximumLineLength: 4)
/// do {
///     _ = try parser.parse(Data("data: too long\n".utf8))
/// } catch {
///     print(error)  // a line longer than the limit of 4 bytes
/// }
/// ```
///
/// The limits keep memory bounded whatever the server sends. No description holds
/// text of the body or of a header.
public enum LiveStreamError: Error, Equatable, Sendable {
    /// A line of the body is longer than the limit.
    ///
    /// - Parameter limit: The longest line accepted, in bytes, without its line end.
    case lineTooLong(limit: Int)
    /// An event's data grew past the limit.
    ///
    /// - Parameter limit: The most data an event may carry, in bytes.
    case eventTooLarge(limit: Int)
    /// The response's `Content-Type` is not the framing's — an HTML page, say.
    ///
    /// - Parameter contentType: The type received, if any.
    case unexpectedContentType(String?)
    /// The request failed, the server answered a status other than `200`, or an
    /// event's value could not be decoded.
    case webservice(WebserviceError)
    /// The server asked, with `Retry-After`, for a wait longer than the reconnection
    /// settings honour.
    ///
    /// - Parameter wait: The wait asked for.
    case retryAfterTooLong(Duration)
    /// The webservice's transport cannot stream a body: it is not a
    /// ``StreamingTransport``.
    case transportCannotStream
}

extension LiveStreamError: CustomStringConvertible {
    /// What went wrong, without any text of the body.
    public var description: String {
        switch self {
        case .lineTooLong(let limit):
            "a line longer than the limit of \(limit) bytes"
        case .eventTooLarge(let limit):
            "an event's data larger than the limit of \(limit) bytes"
        case .unexpectedContentType(let type):
            "the response is not a stream of this kind (Content-Type: \(Self.mediaType(type)))"
        case .webservice(let error):
            error.description
        case .retryAfterTooLong(let wait):
            "the server asked to wait \(wait.components.seconds) s, longer than allowed"
        case .transportCannotStream:
            "the webservice's transport cannot stream a body"
        }
    }

    /// The media type alone, without parameters, at most 64 characters.
    private static func mediaType(_ type: String?) -> String {
        guard let type else { return "none" }
        let media = type.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
        return String(media.trimmingCharacters(in: .whitespaces).prefix(64))
    }
}
