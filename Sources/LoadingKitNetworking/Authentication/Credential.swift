/// What a signed-in account sends with its requests — header fields such as
/// `Authorization` — and the account it belongs to.
///
/// ```swift
/// let credential = Credential(account: "user-42", bearer: token)
/// authenticator.signIn(credential)
/// ```
///
/// The account, not the header values, tells whose values a response holds: a
/// refresh that renews the token of the same account keeps every stored value, while
/// signing in to another account clears them. The kit never prints, logs or writes
/// the header values; the account is written to disk only beside a write an
/// ``Outbox`` keeps — sent with that account's credential alone — and, when
/// `persistsCredentialedRequests` is set, in the keys of the values it loaded.
public struct Credential: Sendable, Equatable, CustomStringConvertible,
    CustomDebugStringConvertible, CustomReflectable
{
    /// Who the credential belongs to, such as a user ID.
    public let account: String
    /// The header fields sent with every request, by name.
    public let headerFields: [String: String]

    /// Creates a credential.
    ///
    /// - Parameters:
    ///   - account: Who the credential belongs to, such as a user ID.
    ///   - headerFields: The header fields sent with every request.
    public init(account: String, headerFields: [String: String]) {
        self.account = account
        self.headerFields = headerFields
    }

    /// Creates a credential sent as `Authorization: Bearer <token>`.
    ///
    /// - Parameters:
    ///   - account: Who the credential belongs to, such as a user ID.
    ///   - token: The bearer token.
    public init(account: String, bearer token: String) {
        self.init(account: account, headerFields: ["Authorization": "Bearer \(token)"])
    }

    /// Names the header fields only — never their values or the account.
    public var description: String {
        "Credential(\(headerFields.keys.sorted().joined(separator: ", ")))"
    }

    /// The same as ``description``.
    public var debugDescription: String { description }

    /// A mirror with the ``description`` only, so that `dump` prints no secret.
    public var customMirror: Mirror {
        Mirror(self, children: ["description": description], displayStyle: .struct)
    }
}
