import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Something that can be loaded: a `URLRequest` plus the function that turns the
/// response into a value.
///
/// Define resources as static members of the model they load:
///
/// ```swift
/// struct Episode: Codable, Sendable { let id: Int; let title: String }
///
/// extension Episode {
///     static func resource(id: Int) -> Resource<Episode> {
///         Resource(url: URL(string: "https://api.example.com/episodes/\(id)")!)
///     }
/// }
///
/// let episode = try await Webservice().load(Episode.resource(id: 1))
/// ```
///
/// A resource is a value: the modifiers (`header(_:_:)`, `timeout(_:)`,
/// `ignoringCache()`, `map(_:)` …) return changed copies. Its ``identity`` says which
/// resources are the same: only those share stored values and requests.
public struct Resource<A>: Sendable {
    /// The request to send.
    public var request: URLRequest {
        didSet {
            method = HTTPMethod(rawValue: request.httpMethod ?? "GET")
            identityCache = ResourceIdentity.Cache()
        }
    }

    /// The HTTP method of the request; kept as the request is set, since reading a
    /// request's method bridges and uppercases it each time.
    public private(set) var method: HTTPMethod

    /// The status codes whose responses are parsed; any other status ends the load
    /// with ``WebserviceError/badStatus(_:)``. Defaults to `200..<300`.
    public var acceptableStatusCodes: IndexSet {
        didSet { identityCache = ResourceIdentity.Cache() }
    }

    /// Whether the load must bypass every cache, including the conditional
    /// revalidation a ``Webservice`` may do. Set by ``ignoringCache()``.
    public private(set) var ignoresCache: Bool

    /// Turns the body and response of an accepted status into the value. Runs off the
    /// main actor, in the task that performed the request.
    public let parse: @Sendable (Data, HTTPURLResponse) throws -> A

    /// What names ``parse`` in the resource's identity.
    package let parseIdentity: ParseIdentity

    /// The header fields, lowercased, that the identity leaves out.
    package private(set) var headersOutsideIdentity: Set<String> = [] {
        didSet { identityCache = ResourceIdentity.Cache() }
    }

    /// The identity, computed at its first read and shared by the copies that change
    /// nothing it depends on: a screen loads the same resource again and again.
    private var identityCache = ResourceIdentity.Cache()

    /// The elements of a value to store under their own resources; set by
    /// ``storingElements(_:as:)``.
    package var storedElements: (@Sendable (A) -> [StoredElement])?

    /// Creates a resource from a request and a parse function.
    ///
    /// A closure has no identity, so the resource's parse is unique to it: it shares
    /// stored values and requests only with its own copies. Name the parse with
    /// ``identified(by:)`` to share them with other resources that parse alike.
    ///
    /// - Parameters:
    ///   - request: The request to send.
    ///   - acceptableStatusCodes: The status codes whose responses are parsed.
    ///   - parse: Turns the body and response into the value; whatever it throws
    ///     ends the load as ``WebserviceError/decoding(_:)``.
    public init(
        request: URLRequest,
        acceptableStatusCodes: IndexSet = Resource.successStatusCodes,
        parse: @escaping @Sendable (Data, HTTPURLResponse) throws -> A
    ) {
        self.init(
            request: request,
            acceptableStatusCodes: acceptableStatusCodes,
            parseIdentity: .unique,
            parse: parse
        )
    }

    /// Creates a resource whose parse has the given identity.
    package init(
        request: URLRequest,
        acceptableStatusCodes: IndexSet = Resource.successStatusCodes,
        parseIdentity: ParseIdentity,
        parse: @escaping @Sendable (Data, HTTPURLResponse) throws -> A
    ) {
        self.request = request
        method = HTTPMethod(rawValue: request.httpMethod ?? "GET")
        self.acceptableStatusCodes = acceptableStatusCodes
        self.ignoresCache = false
        self.parseIdentity = parseIdentity
        self.parse = parse
    }

    /// What makes this resource the same as another: method, URL, header fields,
    /// body, acceptable status codes, value type and parse. See ``ResourceIdentity``
    /// for the rule.
    public var identity: ResourceIdentity { identityCache.identity { ResourceIdentity(of: self) } }

    /// Whether `other` sends the very request this resource sends — method, URL,
    /// header fields, body and cache policy — whatever each makes of the answer.
    ///
    /// - Parameter other: The other resource.
    /// - Returns: Whether one answer answers both.
    package func sendsSameRequest<B>(as other: Resource<B>) -> Bool {
        request.url == other.request.url && method == other.method
            && request.allHTTPHeaderFields == other.request.allHTTPHeaderFields
            && request.httpBody == other.request.httpBody
            && acceptableStatusCodes == other.acceptableStatusCodes
            && request.cachePolicy == other.request.cachePolicy
            && ignoresCache == other.ignoresCache
    }

    /// The status codes accepted by default: `200..<300`.
    public static var successStatusCodes: IndexSet { successStatusCodeSet }

    /// A resource whose value is `transform` applied to this one's.
    ///
    /// ```swift
    /// let titles = Post.all.map { posts in posts.map(\.title) }
    /// ```
    ///
    /// A closure has no identity, so the mapped resource is unique: it shares stored
    /// values and requests only with its own copies. Use ``map(identifiedBy:_:)`` to
    /// share them with every resource mapped alike.
    ///
    /// - Parameter transform: Turns this resource's value into the new one; whatever it
    ///   throws ends the load as ``WebserviceError/decoding(_:)``.
    /// - Returns: The mapped resource.
    public func map<B>(_ transform: @escaping @Sendable (A) throws -> B) -> Resource<B> {
        mapped(by: .uniqueStep, transform)
    }

    /// A resource whose value is `transform` applied to this one's, named `key` so that
    /// every resource mapped from the same resource with the same key is the same
    /// resource.
    ///
    /// ```swift
    /// let newest = Post.all.map(identifiedBy: "newest") { Array($0.prefix(1)) }
    /// ```
    ///
    /// - Parameters:
    ///   - key: Names the transform: give the same key only to transforms that make
    ///     the same value from the same input.
    ///   - transform: Turns this resource's value into the new one; whatever it
    ///     throws ends the load as ``WebserviceError/decoding(_:)``.
    /// - Returns: The mapped resource.
    public func map<B>(
        identifiedBy key: String,
        _ transform: @escaping @Sendable (A) throws -> B
    ) -> Resource<B> {
        mapped(by: .named(key), transform)
    }

    private func mapped<B>(
        by step: ParseIdentity.Step,
        _ transform: @escaping @Sendable (A) throws -> B
    ) -> Resource<B> {
        let parse = self.parse
        return reparsed(as: parseIdentity.appending(step)) { data, response in
            try transform(parse(data, response))
        }
    }

    /// The list of `B` a screen builds from pages of this resource, named `key`; its
    /// identity is ``ResourceIdentity/listed(as:by:)``'s.
    package func listed<B>(
        by key: String,
        _ transform: @escaping @Sendable (A) throws -> B
    ) -> Resource<B> {
        let parse = self.parse
        return reparsed(as: parseIdentity.listing(key)) { data, response in
            try transform(parse(data, response))
        }
    }

    /// This resource with another parse, named `identity`, keeping the request and
    /// every option.
    package func reparsed<B>(
        as identity: ParseIdentity,
        _ parse: @escaping @Sendable (Data, HTTPURLResponse) throws -> B
    ) -> Resource<B> {
        var copy = Resource<B>(
            request: request,
            acceptableStatusCodes: acceptableStatusCodes,
            parseIdentity: identity,
            parse: parse
        )
        copy.ignoresCache = ignoresCache
        copy.headersOutsideIdentity = headersOutsideIdentity
        return copy
    }
}

// MARK: - Modifiers

extension Resource {
    /// A copy whose request carries the header field `name` set to `value`.
    ///
    /// - Parameters:
    ///   - name: The field name.
    ///   - value: Its value, replacing any the request has.
    /// - Returns: The copy.
    public func header(_ name: String, _ value: String) -> Resource {
        var copy = self
        copy.request.setValue(value, forHTTPHeaderField: name)
        return copy
    }

    /// A copy whose request carries the given header fields, replacing any of the
    /// same names.
    ///
    /// - Parameter fields: The values by field name.
    /// - Returns: The copy.
    public func headers(_ fields: [String: String]) -> Resource {
        var copy = self
        for (name, value) in fields {
            copy.request.setValue(value, forHTTPHeaderField: name)
        }
        return copy
    }

    /// A copy whose URL has `items` appended to its query.
    ///
    /// - Parameter items: The query items, after those the URL has; none leaves the
    ///   resource as it is.
    /// - Returns: The copy.
    public func query(_ items: [URLQueryItem]) -> Resource {
        guard !items.isEmpty, let url = request.url else { return self }
        var copy = self
        copy.request.url = url.appendingQuery(items)
        return copy
    }

    /// A copy that gives up once `seconds` have passed since it was sent, however
    /// slowly its body arrives (``URLSessionTransport``'s overall deadline). Every
    /// request has such a deadline: `URLRequest`'s default is 60 seconds; `.infinity`
    /// sets none. A ``URLSessionTransport`` given a
    /// ``URLSessionTransport/Configuration/timeout`` (none by default) ends it at that
    /// one when it comes first: both are overall deadlines, and the earlier one wins.
    ///
    /// FoundationNetworking on Linux truncates timeouts to whole seconds and fires a
    /// timeout below one second at once, so values are rounded up to at least 1 s.
    ///
    /// - Parameter seconds: The timeout.
    /// - Returns: The copy.
    public func timeout(_ seconds: TimeInterval) -> Resource {
        var copy = self
        copy.request.timeoutInterval = Swift.max(1, seconds.rounded(.up))
        return copy
    }

    /// A copy that accepts `codes` instead of the current acceptable status codes —
    /// `200..<300` by default; any other status fails the load with
    /// ``WebserviceError/badStatus(_:)``, its body kept in the failure.
    ///
    /// ```swift
    /// // This API answers 422 with the same JSON shape, listing what it refused.
    /// let accepted = IndexSet(200..<300).union(IndexSet(integer: 422))
    /// let check = Resource<Reply>(url: url).accepting(statusCodes: accepted)
    /// ```
    ///
    /// - Parameter codes: The status codes whose responses are parsed.
    /// - Returns: The copy.
    public func accepting(statusCodes codes: IndexSet) -> Resource {
        var copy = self
        copy.acceptableStatusCodes = codes
        return copy
    }

    /// A copy with the given cache policy on its request.
    ///
    /// - Parameter policy: The request's cache policy.
    /// - Returns: The copy.
    public func cachePolicy(_ policy: URLRequest.CachePolicy) -> Resource {
        var copy = self
        copy.request.cachePolicy = policy
        return copy
    }

    /// A copy that bypasses every cache: the request ignores local and remote caches
    /// and a ``Webservice`` sends no stored validators with it.
    ///
    /// - Returns: The copy.
    public func ignoringCache() -> Resource {
        var copy = cachePolicy(.reloadIgnoringLocalAndRemoteCacheData)
        copy.ignoresCache = true
        return copy
    }

    // MARK: Identity

    /// A copy whose parse is named `key` as a whole, so that it is the same resource
    /// as every other of the same request, value type and key.
    ///
    /// ```swift
    /// let members = Resource<Page<Member, String>>.cursor(…).identified(by: "members")
    /// ```
    ///
    /// - Parameter key: Names the parse: give the same key only to resources whose
    ///   parses make the same value from the same response.
    /// - Returns: The named copy.
    public func identified(by key: String) -> Resource {
        reparsed(as: .named(key), parse)
    }

    /// A copy whose identity leaves out the header fields `names`: requests that differ
    /// only in them are the same resource. Only for fields that never change the
    /// answer, such as a request ID; never for credentials.
    ///
    /// ```swift
    /// let feed = Post.feed.header("X-Request-ID", UUID().uuidString)
    ///     .ignoringHeadersInIdentity("X-Request-ID")
    /// ```
    ///
    /// - Parameter names: Header field names, in any case.
    /// - Returns: The copy.
    public func ignoringHeadersInIdentity(_ names: String...) -> Resource {
        var copy = self
        copy.headersOutsideIdentity.formUnion(names.map { $0.lowercased() })
        return copy
    }
}

/// `200..<300`, made once: every resource starts with it.
private let successStatusCodeSet = IndexSet(integersIn: 200..<300)
