/// When ``Loading/load(resource:policy:)`` sends a request, and how the state shows it.
///
/// ```swift
/// await screen.load(resource: feed)                              // only if needed
/// await screen.load(resource: feed, policy: .force)              // always
/// await screen.load(resource: feed, policy: .background.ignoringCache)
/// await screen.load(resource: results(for: query), policy: .ifNeeded.keepingPreviousContent)
/// ```
public struct LoadPolicy: Sendable, Equatable, CustomStringConvertible {
    /// How a policy decides.
    public enum Kind: Sendable, Equatable {
        /// Load only when nothing is loaded or the last load failed.
        case ifNeeded
        /// Always load, with the loading placeholder when there is no content.
        case force
        /// Always load, keeping what is shown and showing no loading placeholder.
        case background
    }

    /// How the policy decides.
    public let kind: Kind
    /// Whether the request bypasses every cache and sends no stored validators.
    public let ignoresCache: Bool
    /// Whether a load of another resource keeps the content shown — marked
    /// ``LoadingState/isPreviousContent`` — until its own value applies, instead of
    /// clearing it as it starts.
    public let keepsPreviousContent: Bool

    /// Creates a policy.
    ///
    /// - Parameters:
    ///   - kind: How the policy decides.
    ///   - ignoresCache: Whether the request bypasses every cache and sends no stored
    ///     validators; `false` by default.
    ///   - keepsPreviousContent: Whether a load of another resource keeps the content
    ///     shown until its own value applies; `false` by default.
    public init(_ kind: Kind, ignoresCache: Bool = false, keepsPreviousContent: Bool = false) {
        self.kind = kind
        self.ignoresCache = ignoresCache
        self.keepsPreviousContent = keepsPreviousContent
    }

    /// Load only when nothing is loaded or the last load failed; the default.
    public static let ifNeeded = LoadPolicy(.ifNeeded)
    /// Always load, with the loading placeholder when there is no content.
    public static let force = LoadPolicy(.force)
    /// Always load, keeping what is shown, without the loading placeholder.
    public static let background = LoadPolicy(.background)

    /// This policy, with the request bypassing every cache.
    public var ignoringCache: LoadPolicy {
        LoadPolicy(kind, ignoresCache: true, keepsPreviousContent: keepsPreviousContent)
    }

    /// This policy, keeping the content of the previous resource shown — marked as
    /// such — while another resource loads: a search box, a filter.
    public var keepingPreviousContent: LoadPolicy {
        LoadPolicy(kind, ignoresCache: ignoresCache, keepsPreviousContent: true)
    }

    /// The policy's name, such as `force, ignoring cache`.
    public var description: String {
        let name =
            switch kind {
            case .ifNeeded: "ifNeeded"
            case .force: "force"
            case .background: "background"
            }
        return name + (ignoresCache ? ", ignoring cache" : "")
            + (keepsPreviousContent ? ", keeping previous content" : "")
    }
}
