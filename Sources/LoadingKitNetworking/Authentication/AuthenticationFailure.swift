/// Why a request that needs the ``Authenticator``'s credential was not answered.
///
/// ```swift
/// catch .authentication(.refreshFailed) { showSignIn() }
/// ```
public enum AuthenticationFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// No one is signed in: the request was not sent.
    case signedOut
    /// The credential expired and renewing it failed: no request is sent again until
    /// someone signs in.
    case refreshFailed
    /// The server refused the credential it had just been renewed to.
    case refused
    /// The account changed while the request was under way: its answer, another
    /// account's, was not stored or shown.
    case accountChanged

    /// What went wrong, with no credential in it.
    public var description: String {
        switch self {
        case .signedOut: "no one is signed in"
        case .refreshFailed: "the credential expired and could not be renewed"
        case .refused: "the server refused the renewed credential"
        case .accountChanged: "the account changed while the request was under way"
        }
    }
}
