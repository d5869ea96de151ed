import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Loads resources through a transport: sends the request, checks the status,
/// parses the body, and reports every failure as a ``WebserviceError`` — with request
/// coalescing, conditional revalidation and, when asked, retries.
///
/// ```swift
/// let webservice = Webservice()  // URLSessionTransport.shared
/// let episode = try await webservice.load(Episode.resource(id: 1))
///
/// let tests = Webservice(transport: mockTransport)
/// let patient = Webservice(configuration: .init(retry: .standard))
/// ```
///
/// The request and the parse run in the calling task, off the main actor; no shared
/// actor sits on the request path.
///
/// Everything shared between loads is keyed by the resource's
/// ``Resource/identity`` — method, URL, header fields, body, status codes, value type
/// and parse — so a load is never handed a value of another resource.
///
/// - **Coalescing**: `GET` and `HEAD` loads of the same resource in flight at once
///   share one transport request and one parse. A caller that cancels gets
///   ``WebserviceError/cancelled`` while the others go on; the request is cancelled
///   only when every caller has cancelled.
/// - **Revalidation**: after a `200` with `ETag` or `Last-Modified` to a `GET`, the
///   next load of the same resource sends `If-None-Match` / `If-Modified-Since` as
///   received; a `304` is answered with the stored value, without decoding.
///   Validators are kept per resource identity (the most recent
///   ``Configuration/revalidationCapacity`` of them) and never sent with another
///   resource; a resource that ignores caches sends none, and nothing of a
///   `Cache-Control: no-store` response is kept.
/// - **Retry**: as ``Configuration/retry`` says; off by default.
public final class Webservice: Sendable {
    /// How a ``Webservice`` coalesces, revalidates, retries and keeps time.
    ///
    /// ```swift
    /// var configuration = Webservice.Configuration()
    /// configuration.retry = .standard
    /// configuration.coalescedMethods = []   // every request goes out
    /// ```
    public struct Configuration: Sendable {
        /// The methods whose identical concurrent requests share one request.
        /// Default: `GET` and `HEAD`.
        public var coalescedMethods: Set<HTTPMethod>
        /// When failed requests are tried again. Default: ``RetryPolicy/none``.
        public var retry: RetryPolicy
        /// Whether `GET` responses with validators are stored for conditional
        /// revalidation. Default: `true`.
        public var revalidates: Bool
        /// How many URLs' validators and values are kept. Default: 64.
        public var revalidationCapacity: Int
        /// The clock retries wait on. Default: `ContinuousClock()`.
        public var clock: any LoadingClock

        /// Creates a configuration.
        public init(
            coalescedMethods: Set<HTTPMethod> = [.get, .head],
            retry: RetryPolicy = .none,
            revalidates: Bool = true,
            revalidationCapacity: Int = 64,
            clock: any LoadingClock = ContinuousClock()
        ) {
            self.coalescedMethods = coalescedMethods
            self.retry = retry
            self.revalidates = revalidates
            self.revalidationCapacity = revalidationCapacity
            self.clock = clock
        }
    }

    /// The transport requests go through.
    public let transport: any Transport

    /// The policies of this webservice.
    public let configuration: Configuration

    let store: ValidatorStore
    let coalescer: Coalescer

    /// Creates a webservice.
    ///
    /// - Parameters:
    ///   - transport: Where requests go; ``URLSessionTransport/shared`` by default.
    ///   - configuration: Coalescing, revalidation, retry and clock.
    public convenience init(
        transport: any Transport = URLSessionTransport.shared,
        configuration: Configuration = Configuration()
    ) {
        self.init(transport: transport, configuration: configuration, coalescer: Coalescer())
    }

    /// Creates a webservice with the given coalescer, for tests that inject races.
    init(transport: any Transport, configuration: Configuration, coalescer: Coalescer) {
        self.transport = transport
        self.configuration = configuration
        self.store = ValidatorStore(capacity: configuration.revalidationCapacity)
        self.coalescer = coalescer
    }

    /// A webservice on ``URLSessionTransport/shared``, for apps that need only one.
    public static let shared = Webservice()

    /// Loads `resource`.
    ///
    /// When the calling task is cancelled the load throws
    /// ``WebserviceError/cancelled``; the request is cancelled unless other callers
    /// share it.
    ///
    /// - Parameter resource: What to load.
    /// - Returns: The parsed value, or the stored one when the server answered `304`.
    /// - Throws: ``WebserviceError`` for every failure.
    public func load<A: Sendable>(_ resource: Resource<A>) async throws(WebserviceError) -> A {
        try await fetch(resource).value
    }

    /// Loads `resource` and tells how: its validators, and whether the server said it
    /// had not changed.
    ///
    /// - Parameter resource: What to load.
    /// - Returns: The value with its validators.
    /// - Throws: ``WebserviceError`` for every failure.
    public func fetch<A: Sendable>(
        _ resource: Resource<A>
    ) async throws(WebserviceError) -> Fetched<A> {
        try await fetch(resource, identity: resource.identity, lease: nil)
    }

    /// Loads `resource`, sharing the request with identical loads in flight when its
    /// method is coalesced (the model is described in `Coalescer`). A caller whose
    /// task is dedicated to the fetch and cancelled only through `lease` runs a new
    /// request in that task, which saves a task and a thread hand-off per load; any
    /// other gets a task for its request.
    ///
    /// - Parameters:
    ///   - resource: What to load.
    ///   - identity: The resource's identity, when the caller has computed it.
    ///   - lease: The cancellation of the task the fetch runs in, when the kit owns it.
    package func fetch<A: Sendable>(
        _ resource: Resource<A>,
        identity: ResourceIdentity? = nil,
        lease: FetchLease?
    ) async throws(WebserviceError) -> Fetched<A> {
        guard !Task.isCancelled else { throw .cancelled }
        let identity = identity ?? resource.identity
        guard configuration.coalescedMethods.contains(resource.method) else {
            return try await attempts(resource, identity: identity).get()
        }
        let key = Coalescer.Key(identity: identity, ignoresCache: resource.ignoresCache)
        let operation = { @Sendable in await self.attempts(resource, identity: identity) }
        guard let outcome = await coalescer.run(key, lease: lease, operation: operation) else {
            throw .cancelled
        }
        return try outcome.get()
    }

    /// Forgets every stored value and its validators, so that no later load is answered
    /// from them. Call it when the account changes: cookies the session sets by itself
    /// and credentials a transport of your own adds are not part of a resource's
    /// identity, so a value stored for the previous account could otherwise answer a
    /// `304` for the next. Loads in flight are not affected.
    ///
    /// ```swift
    /// func signOut() { webservice.removeStoredValues() }
    /// ```
    public func removeStoredValues() {
        store.removeAll()
    }

    /// Requests in flight after coalescing.
    public var requestsInFlight: Int { coalescer.flightCount }

    /// Callers waiting on the coalesced requests in flight (each counted once per
    /// request it waits on).
    public var sharedCallers: Int { coalescer.callerCount }
}
