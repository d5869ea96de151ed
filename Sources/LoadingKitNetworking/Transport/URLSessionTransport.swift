import Dispatch
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The live transport: one long-lived `URLSession` with a session delegate that
/// streams bodies, enforces a size limit and reports progress.
///
/// ```swift
/// let transport = URLSessionTransport(
///     configuration: .init(maximumResponseSize: 1 << 20, timeout: 10)
/// )
/// let webservice = Webservice(transport: transport)
/// ```
///
/// Create one transport and keep it: on Linux, sessions created per request leak
/// threads and can crash at teardown. ``shared`` serves most apps.
///
/// Redirects follow ``Configuration/redirects``: credentials never follow one to
/// another origin.
///
/// On Linux the session's callbacks run where FoundationNetworking delivers them, on
/// the session's own serial queue, instead of one thread hand-off each: a request
/// costs about as many hand-offs as a completion handler's.
///
/// A server may close a kept-alive connection just as a request is sent on it, as
/// servers and balancers close idle ones (nginx after 75 s). libcurl then sends the
/// request again on a new connection, which for a body means rewinding it, and
/// FoundationNetworking (Swift 6.3.1) cannot rewind a body given as data: measured here,
/// a `PUT`, `POST`, `PATCH` or `DELETE` with a body sent its head again with no body and
/// waited for its whole timeout (60 s by default), while one without a body, or on a new
/// connection, ended at once. (A body given as a stream can be rewound, but is always
/// sent chunked, which some servers refuse.) The transport ends such a request at the
/// rewind and sends it again at once when that is safe: its method is idempotent or it
/// carries an `Idempotency-Key`. Otherwise it fails with
/// `URLError(.networkConnectionLost)` — the server may have taken it.
///
/// Cancelling the task that awaits ``send(_:)`` returns at once with
/// `CancellationError` and cancels the `URLSessionTask` from another queue. The
/// transport never uses `URLSession`'s async methods, whose cancellation can
/// deadlock FoundationNetworking on Linux.
public final class URLSessionTransport: Transport {
    /// How a ``URLSessionTransport`` sets up its session.
    ///
    /// ```swift
    /// var configuration = URLSessionTransport.Configuration()
    /// configuration.maximumResponseSize = 512 * 1024
    /// ```
    public struct Configuration: Sendable {
        /// The largest body accepted, in bytes; a larger one ends the request with
        /// ``WebserviceError/responseTooLarge(_:)`` without being buffered.
        /// Defaults to 64 MiB.
        public var maximumResponseSize: Int
        /// The longest any request may take, in seconds, however slowly its body
        /// arrives: it ends with `URLError(.timedOut)` at this deadline or at its own
        /// `timeoutInterval` (``Resource/timeout(_:)``, 60 seconds unless set),
        /// whichever comes first. Default: `.infinity`, so each request's own.
        public var timeout: TimeInterval
        /// The most connections open to one host at a time. Defaults to 6.
        public var maximumConnectionsPerHost: Int
        /// Header fields sent with every request that does not set them itself. They
        /// are added to each request rather than to the session, so that a redirect
        /// to another origin drops the credentials among them.
        public var additionalHeaders: [String: String]
        /// What redirects are followed, and with which header fields.
        public var redirects: RedirectPolicy
        /// The clock request deadlines are kept on. Default: `ContinuousClock()`;
        /// tests give a `ManualClock`.
        public var clock: any Clock<Duration>
        /// Whether, on Linux, each stream's connection is opened by a bare `OPTIONS`
        /// request to its URL before the stream is sent on it, so that an idle stream
        /// does not spin a core (see ``URLSessionTransport/stream(_:)``). Default:
        /// `true`; a server that must see nothing but the stream's request can do
        /// without it, at that cost.
        public var opensStreamsWithOptions: Bool

        /// Creates a configuration.
        ///
        /// - Parameters:
        ///   - maximumResponseSize: The largest body accepted, in bytes.
        ///   - timeout: The longest a request may take, in seconds, unless its own
        ///     `timeoutInterval` is shorter.
        ///   - maximumConnectionsPerHost: The most connections open to one host.
        ///   - additionalHeaders: Header fields sent with every request.
        ///   - redirects: What redirects are followed, and with which header fields.
        ///   - clock: The clock request deadlines are kept on.
        ///   - opensStreamsWithOptions: Whether, on Linux, a stream's connection is
        ///     opened by an `OPTIONS` request first.
        public init(
            maximumResponseSize: Int = 64 << 20,
            timeout: TimeInterval = .infinity,
            maximumConnectionsPerHost: Int = 6,
            additionalHeaders: [String: String] = [:],
            redirects: RedirectPolicy = RedirectPolicy(),
            clock: any Clock<Duration> = ContinuousClock(),
            opensStreamsWithOptions: Bool = true
        ) {
            self.maximumResponseSize = maximumResponseSize
            self.timeout = timeout
            self.maximumConnectionsPerHost = maximumConnectionsPerHost
            self.additionalHeaders = additionalHeaders
            self.redirects = redirects
            self.clock = clock
            self.opensStreamsWithOptions = opensStreamsWithOptions
        }
    }

    /// A transport with the default configuration, shared by the whole process.
    public static let shared = URLSessionTransport()

    /// The configuration the transport was created with.
    public let configuration: Configuration

    /// A plain session configured as the transport's, for requests made by hand
    /// beside the kit and for measurements against raw `URLSession`: they bypass the
    /// size limit and progress. Its delegate queue is an ordinary one, so a completion
    /// handler may start or cancel tasks; it is made the first time it is asked for and
    /// shares no connection with the transport's own session. Never invalidate it.
    public var session: URLSession {
        plainSession.withLock { plain in
            if let plain { return plain }
            let made = URLSession(configuration: Self.sessionConfiguration(for: configuration))
            plain = made
            return made
        }
    }

    /// The session the transport sends through, whose callbacks run inline on Linux:
    /// nothing but the transport's delegate may use it, since a block that calls the
    /// session synchronously from a callback would wait for itself.
    package let streamingSession: URLSession
    private let plainSession = Locked<URLSession?>(nil)
    let delegate: SessionDelegate
    private let deadlines: DeadlineScheduler

    /// Creates a transport with its own session.
    ///
    /// - Parameter configuration: The limits, timeouts, header fields, redirects and
    ///   clock of the transport; the defaults of ``Configuration`` by default.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        delegate = SessionDelegate(redirects: configuration.redirects)
        deadlines = DeadlineScheduler(clock: configuration.clock)
        streamingSession = URLSession(
            configuration: Self.sessionConfiguration(for: configuration),
            delegate: delegate,
            delegateQueue: DelegateQueue()
        )
    }

    deinit {
        // Invalidating waits for the session's work queue, which runs the callbacks
        // that may release the transport last: never from there.
        let sessions = [streamingSession, plainSession.withLock { $0 }].compactMap { $0 }
        Exchange.cancellation.async {
            for session in sessions {
                session.invalidateAndCancel()
            }
        }
    }

    /// The configuration of the transport's sessions.
    static func sessionConfiguration(
        for configuration: Configuration
    ) -> URLSessionConfiguration {
        let sessionConfiguration = URLSessionConfiguration.ephemeral
        sessionConfiguration.urlCache = nil
        sessionConfiguration.requestCachePolicy = .reloadIgnoringLocalCacheData
        // No credential FoundationNetworking would propose on a challenge by suspending
        // the task from a callback: the kit applies credentials itself.
        sessionConfiguration.urlCredentialStorage = nil
        // The time without data after which FoundationNetworking gives up; the
        // deadlines above are the kit's own.
        sessionConfiguration.timeoutIntervalForRequest =
            configuration.timeout.isFinite
            ? min(Self.longestTimeout, max(1, configuration.timeout.rounded(.up))) : 60
        sessionConfiguration.httpMaximumConnectionsPerHost = configuration.maximumConnectionsPerHost
        return sessionConfiguration
    }

    /// The configuration's ``Configuration/additionalHeaders``, sent with every request.
    public var addedHeaderFields: [String: String] { configuration.additionalHeaders }

    /// Sends `request` through the session.
    ///
    /// A request whose kept-alive connection closes before any answer is sent again at
    /// once on another connection when that is safe — its method is idempotent, or it
    /// carries an `Idempotency-Key` — and otherwise ends with
    /// `URLError(.networkConnectionLost)`: the server may have taken it.
    ///
    /// - Parameter request: The request; its `timeoutInterval`, or the configuration's
    ///   ``Configuration/timeout`` when shorter, is its overall deadline.
    /// - Returns: The body and the response, whatever its status.
    /// - Throws: `URLError` when the request fails — `URLError(.timedOut)` past the
    ///   deadline —, `CancellationError` when the task is
    ///   cancelled, ``WebserviceError/responseTooLarge(_:)`` past the size limit.
    public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let request = prepared(request)
        let deadline = deadline(for: request)
        // Each pooled connection the server closed costs one attempt; past the most a
        // host may have, the next attempt has a new connection.
        var closedConnections = 0
        while true {
            do {
                return try await exchange(request, until: deadline)
            } catch is ClosedUnanswered {
                closedConnections += 1
                guard Self.maySendAgain(request),
                    closedConnections <= configuration.maximumConnectionsPerHost
                else { throw URLError(.networkConnectionLost) }
            }
        }
    }

    /// Sends `request` once, through one `URLSessionTask`.
    private func exchange(
        _ request: URLRequest,
        until deadline: ContinuousClock.Instant?
    ) async throws -> (Data, HTTPURLResponse) {
        let task = streamingSession.dataTask(with: request)
        let exchange = Exchange(
            task: task,
            limit: configuration.maximumResponseSize,
            progress: TransferProgress.observer,
            credentialFields: Self.credentialFields
        )
        // The exchange is registered before the cancellation handler exists, so a
        // cancellation or an early completion always finds it.
        delegate.register(exchange, for: task)
        let expiry = deadline.map { deadline in
            deadlines.schedule(at: deadline) { exchange.expire() }
        }
        defer { expiry.map(deadlines.cancel) }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                if exchange.start(continuation) {
                    task.resume()
                }
            }
        } onCancel: {
            exchange.cancel()
        }
    }

    /// Whether `request` may be sent again after its connection closed unanswered: the
    /// server may have applied it, which is harmless only for an idempotent method or a
    /// request the server recognizes by its idempotency key.
    private static func maySendAgain(_ request: URLRequest) -> Bool {
        HTTPMethod(rawValue: request.httpMethod ?? "GET").isIdempotent
            || request.value(forHTTPHeaderField: "Idempotency-Key") != nil
    }

    /// When `request` must have ended: its `timeoutInterval` or the configuration's
    /// timeout from now, whichever is first; `nil` when both are infinite or out of
    /// range, which sets no deadline.
    private func deadline(for request: URLRequest) -> ContinuousClock.Instant? {
        let seconds = min(request.timeoutInterval, configuration.timeout)
        guard seconds.isFinite, seconds > 0, seconds < Self.longestTimeout else { return nil }
        return configuration.clock.continuousNow.advanced(by: .seconds(seconds))
    }

    /// `request` with the configuration's additional header fields it does not set,
    /// and an infinite or out-of-range timeout brought within what FoundationNetworking
    /// accepts (it traps on one, converting it to milliseconds).
    func prepared(_ request: URLRequest) -> URLRequest {
        let additional = configuration.additionalHeaders
        let timeout = request.timeoutInterval
        let timeoutIsAccepted = timeout.isFinite && timeout < Self.longestTimeout
        guard !additional.isEmpty || !timeoutIsAccepted else { return request }
        var request = request
        for (name, value) in additional where request.value(forHTTPHeaderField: name) == nil {
            request.setValue(value, forHTTPHeaderField: name)
        }
        if !timeoutIsAccepted {
            request.timeoutInterval = Self.longestTimeout
        }
        return request
    }

    /// The header fields of the request being sent that carry a credential, besides
    /// those the redirect policy names: an authenticator's, dropped on a redirect to
    /// another origin.
    @TaskLocal package static var credentialFields: Set<String> = []

    /// The longest timeout passed on, in seconds (about 31 years): longer means none.
    private static let longestTimeout: TimeInterval = 1e9
}
