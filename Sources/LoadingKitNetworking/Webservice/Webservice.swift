import Foundation
import Synchronization

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
/// - **The store**: the value of every `GET` is kept per resource identity, with its
///   validators, freshness and response summary, within ``Configuration/storage``
///   (least recently used first, never a value a live loader shows). Loaders share it:
///   see ``storedValue(for:)``, ``invalidate(_:)`` and ``send(_:)``. Nothing of a
///   `Cache-Control: no-store` response is kept, and a resource that ignores caches
///   neither reads nor writes it.
/// - **Revalidation**: a load of a stored value with `ETag` or `Last-Modified` sends
///   `If-None-Match` / `If-Modified-Since` as received; a `304` is answered with the
///   stored value, without decoding. Validators are never sent with another resource.
/// - **Retry**: as ``Configuration/retry`` says; off by default.
/// - **Events**: what it does and decides goes to ``Configuration/monitor``, if any.
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
        /// Whether a load of a stored value with validators asks the server whether it
        /// changed (`If-None-Match`, `If-Modified-Since`). Default: `true`.
        public var revalidates: Bool
        /// How much of what it loads the webservice keeps in memory, to share between
        /// screens and to revalidate. Default: 500 entries, 32 MiB.
        public var storage: StorageLimits
        /// Where `Codable` values are kept across launches; `nil`, the default, keeps
        /// nothing. See ``ResourceStore``.
        public var persistentStore: (any ResourceStore)?
        /// Whether values of requests carrying credentials are kept in
        /// ``persistentStore`` too. Default: `false`: a request carries one when its URL
        /// has a user or a password, or it or the transport's
        /// ``Transport/addedHeaderFields`` have a query item or header field whose name
        /// is a credential's — `Authorization`, `Proxy-Authorization`, `Cookie`, any with
        /// a word such as `token`, `key`, `secret`, `password`, `auth`, `session` or
        /// `sig` (`X-API-Key`, `access_token`, `apiKey`), or one of
        /// ``credentialNames``. Values of an ``authenticator``'s requests are kept per
        /// account when this is `true`.
        public var persistsCredentialedRequests: Bool
        /// More names of header fields and query items whose values are credentials,
        /// in any case: kept off disk like the names the kit recognises. Default: none.
        public var credentialNames: Set<String> {
            didSet { credentials = CredentialNames(named: credentialNames) }
        }
        /// The rule ``credentialNames`` and the kit's words make.
        private(set) var credentials: CredentialNames
        /// The clock retries wait on and stored values are timed by: any
        /// `Clock<Duration>`. Default: `ContinuousClock()`.
        public var clock: any Clock<Duration>
        /// Who hears what the webservice and its loaders do and decide: requests,
        /// coalescing, `304`s, retries, cancellations, stored values. Default: `nil`,
        /// and then no event is built at all. See ``LoadingEventPrinter``.
        public var monitor: (any LoadingMonitor)?
        /// Where mutations kept until sent (``Mutation/keptUntilSent()``) wait for
        /// their server, across launches. Default: `nil`, and such a mutation is
        /// refused. See ``Outbox``.
        public var outbox: Outbox?
        /// The account signed in: every request carries its credential, renewed once
        /// for every request that found it expired. Default: `nil`. See
        /// ``Authenticator``.
        public var authenticator: Authenticator?
        /// How long a load of a value a mutation under way changes waits for the
        /// mutation to end — its answer would not say whether the server had the change
        /// yet. Past it, the load goes: the change shows laid on what it brings, and the
        /// mutation's answer is applied when it comes. A load whose answer is not
        /// stored — one that ignores the cache, or not a `GET` — waits as long as it
        /// takes, since no change would be laid on it. Default: 2 s; `nil` waits as long
        /// as it takes; zero or less waits for nothing.
        public var mutationWait: Duration?

        /// Creates a configuration.
        ///
        /// - Parameters:
        ///   - coalescedMethods: The methods whose identical concurrent requests share
        ///     one request.
        ///   - retry: When failed requests are tried again.
        ///   - revalidates: Whether stored values are revalidated with their validators.
        ///   - storage: How much is kept in memory.
        ///   - persistentStore: Where values are kept across launches, if anywhere.
        ///   - persistsCredentialedRequests: Whether values of requests with
        ///     credentials are kept across launches too.
        ///   - credentialNames: More names of header fields and query items whose
        ///     values are credentials.
        ///   - clock: The clock of retries and stored values.
        ///   - monitor: Who hears the events of the webservice and its loaders.
        ///   - outbox: Where mutations kept until sent wait for their server.
        ///   - authenticator: The account signed in, whose credential every request
        ///     carries.
        ///   - mutationWait: How long a load waits for a mutation under way that changes
        ///     what it loads; `nil` for as long as it takes.
        public init(
            coalescedMethods: Set<HTTPMethod> = [.get, .head],
            retry: RetryPolicy = .none,
            revalidates: Bool = true,
            storage: StorageLimits = StorageLimits(),
            persistentStore: (any ResourceStore)? = nil,
            persistsCredentialedRequests: Bool = false,
            credentialNames: Set<String> = [],
            clock: any Clock<Duration> = ContinuousClock(),
            monitor: (any LoadingMonitor)? = nil,
            outbox: Outbox? = nil,
            authenticator: Authenticator? = nil,
            mutationWait: Duration? = .seconds(2)
        ) {
            self.coalescedMethods = coalescedMethods
            self.retry = retry
            self.revalidates = revalidates
            self.storage = storage
            self.persistentStore = persistentStore
            self.persistsCredentialedRequests = persistsCredentialedRequests
            self.credentialNames = credentialNames
            credentials = CredentialNames(named: credentialNames)
            self.clock = clock
            self.monitor = monitor
            self.outbox = outbox
            self.authenticator = authenticator
            self.mutationWait = mutationWait
        }
    }

    /// The transport requests go through.
    public let transport: any Transport

    /// The policies of this webservice.
    public let configuration: Configuration

    package let store: StoredValues
    /// Whether anyone listens: the kit times requests and builds events only then.
    package let isMonitored: Bool
    /// The fetches in flight that other loads join.
    let fetches = FetchTable()
    /// The live connections open, one per live identity followed.
    let liveConnections = LiveConnections()
    /// The mutations under way, which loads of the values they change wait for.
    private let pendingWrites = PendingWrites()
    /// Whether ``writes`` was ever asked for: until then the loads of the webservice
    /// never look at the mutations.
    private let hasWrites = Atomic<Bool>(false)
    /// The mutations under way, for a mutation or the outbox.
    var writes: PendingWrites {
        hasWrites.store(true, ordering: .releasing)
        return pendingWrites
    }
    /// The mutations under way, when one was ever sent.
    var writesIfAny: PendingWrites? {
        hasWrites.load(ordering: .acquiring) ? pendingWrites : nil
    }
    /// Writes to the persistent store, in order, off every caller's path.
    let persistenceQueue = DispatchQueue(label: "LoadingKit.persistence", qos: .utility)
    /// For each persistent key, the number of the last write or removal asked for: a
    /// write that a later one for its key replaced before it ran is skipped unencoded.
    let persistenceTurns = Locked<[String: UInt64]>([:])
    /// The date before which every persisted value reads back stale, once read from the
    /// persistent store (the outer optional: not read yet).
    let persistedStaleBefore = Locked<Date??>(nil)
    /// What keeps values the screens hold beside the store — the lists they show —
    /// before ``persistPendingValues()`` waits for the writes.
    let persistenceHooks = Locked<[@MainActor @Sendable () -> Void]>([])

    /// Creates a webservice.
    ///
    /// - Parameters:
    ///   - transport: Where requests go; ``URLSessionTransport/shared`` by default.
    ///   - configuration: Coalescing, revalidation, retry and clock.
    public init(
        transport: any Transport = URLSessionTransport.shared,
        configuration: Configuration = Configuration()
    ) {
        self.transport = transport
        self.configuration = configuration
        self.store = StoredValues(limits: configuration.storage)
        isMonitored = configuration.monitor != nil
        if let authenticator = configuration.authenticator {
            store.showPendingChanges(madeBy: authenticator.signedInAccount)
            authenticator.serve(self)
        }
        if let outbox = configuration.outbox {
            for name in outbox.start(for: self) {
                configuration.monitor?.record(
                    LoadingEvent(kind: .outboxFileRefused(name: name), method: .post, url: nil)
                )
            }
        }
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
        try await fetch(resource, identity: resource.identity)
    }

    /// Loads `resource` in the calling task's name, sharing the request with identical
    /// loads in flight when its method is coalesced (see ``Fetch``). A caller whose
    /// task is cancelled leaves at once with ``WebserviceError/cancelled``; the request
    /// goes on while another caller wants it.
    ///
    /// - Parameters:
    ///   - resource: What to load.
    ///   - identity: The resource's identity, when the caller has computed it.
    ///   - retry: When a failure is tried again; the configuration's policy by default.
    ///   - coalesces: Whether an identical request in flight is shared; by default, as
    ///     the configuration says for the method.
    ///   - notifies: Whether the store tells the loaders of a value stored; a loader
    ///     that applies the value itself tells them in the same main-actor turn.
    ///   - settlingWrites: Whether the fetch waits for the mutations under way that
    ///     change the resource; a mutation's own request does not.
    package func fetch<A: Sendable>(
        _ resource: Resource<A>,
        identity: ResourceIdentity? = nil,
        retry: RetryPolicy? = nil,
        coalesces: Bool? = nil,
        notifies: Bool = true,
        settlingWrites: Bool = true
    ) async throws(WebserviceError) -> Fetched<A> {
        // Computed only when needed: a request that is not shared and whose answer is
        // not stored — a mutation's — has no use for it.
        var identity = identity
        // A renewal's own requests wait for no write: one may wait for the renewal.
        if settlingWrites, !Authenticator.isRefreshing, let writes = writesIfAny, !writes.isEmpty {
            let waiting = identity ?? resource.identity
            identity = waiting
            await writes.waitForMutations(
                changing: waiting,
                atMost: resource.method == .get && !resource.ignoresCache
                    ? configuration.mutationWait : nil,
                on: configuration.clock
            ) {
                self.report(.waitingForMutation, about: resource)
            }
        }
        guard !Task.isCancelled else { throw .cancelled }
        guard coalesces ?? configuration.coalescedMethods.contains(resource.method) else {
            return try await attempts(
                resource,
                identity: identity,
                retry: retry,
                notifies: notifies,
                account: currentAccount
            ).get()
        }
        let (interest, _) = sharedInterest(
            in: resource,
            identity: identity ?? resource.identity,
            retry: retry,
            notifies: notifies
        )
        guard let outcome = await interest.wait(onCancel: {}) else { throw .cancelled }
        return try outcome.get()
    }

    /// The interest of a loader that decides to load `resource` now, on the main actor,
    /// in the fetch of it: the one in flight, or a new one — so that no request of it
    /// can end between the decision and the fetch. The value is not told to the other
    /// loaders: the loader tells them as it applies it.
    ///
    /// - Parameters:
    ///   - resource: What to load.
    ///   - identity: The resource's identity.
    ///   - progress: Receives the transfer's progress, when the fetch is new.
    ///   - discarded: Runs when the fetch ends after the loader left.
    /// - Returns: The loader's interest.
    package func interest<A: Sendable>(
        in resource: Resource<A>,
        identity: ResourceIdentity,
        progress: TransferProgress.Handler?,
        discarded: (@Sendable () -> Void)?
    ) -> FetchInterest<Result<Fetched<A>, WebserviceError>> {
        guard configuration.coalescedMethods.contains(resource.method),
            writesIfAny?.isEmpty != false
        else {
            return Fetch.start(progress: progress, discarded: discarded) {
                do throws(WebserviceError) {
                    return .success(
                        try await self.fetch(resource, identity: identity, notifies: false)
                    )
                } catch {
                    return .failure(error)
                }
            }
        }
        return sharedInterest(
            in: resource,
            identity: identity,
            notifies: false,
            progress: progress,
            discarded: discarded
        ).interest
    }

    /// A new caller's interest in the shared fetch of `resource`: joined when one is in
    /// flight (and reported), else a new one running its attempts.
    private func sharedInterest<A: Sendable>(
        in resource: Resource<A>,
        identity: ResourceIdentity,
        retry: RetryPolicy? = nil,
        notifies: Bool,
        progress: TransferProgress.Handler? = nil,
        discarded: (@Sendable () -> Void)? = nil
    ) -> (interest: FetchInterest<Result<Fetched<A>, WebserviceError>>, joined: Bool) {
        let isRefreshing = Authenticator.isRefreshing
        let key = FetchTable.Key(
            identity: identity,
            ignoresCache: resource.ignoresCache,
            credential: isRefreshing ? .max : configuration.authenticator?.credentialNumber ?? 0
        )
        // The account the load is for: it is sent for no other.
        let account = currentAccount
        let shared = fetches.interest(in: key, progress: progress, discarded: discarded) {
            await self.attempts(
                resource,
                identity: identity,
                retry: retry,
                notifies: notifies,
                account: account
            )
        }
        if shared.joined {
            report(.coalesced, about: resource)
        }
        return shared
    }

    /// The number of the account a load sent now is for: none for a renewal's own.
    private var currentAccount: UInt64? {
        guard let authenticator = configuration.authenticator, !Authenticator.isRefreshing
        else { return nil }
        return authenticator.account
    }

    /// Requests in flight after coalescing.
    public var requestsInFlight: Int { fetches.count }

    /// Callers waiting on the coalesced requests in flight (each counted once per
    /// request it waits on).
    public var sharedCallers: Int { fetches.callerCount }
}
