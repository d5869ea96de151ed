import Foundation

/// When and how a ``Webservice`` tries a failed request again.
///
/// ```swift
/// var retry = RetryPolicy.standard          // 3 attempts, 0.5 s doubling, ±20 % jitter
/// retry.onAttempt = { attempt in print("attempt \(attempt.number) in \(attempt.delay)") }
/// let webservice = Webservice(configuration: .init(retry: retry))
/// ```
///
/// A request is retried only when its method is idempotent (unless
/// ``retriesNonIdempotentRequests``), after a transport failure or a 408, 429 or 5xx
/// status — never another 4xx, a decoding error, an oversized body or a
/// cancellation. The delay grows exponentially with jitter up to ``maximumDelay``;
/// a `Retry-After` header on 429 or 503 (seconds or an HTTP date) replaces it. A
/// cancelled task stops waiting at once. Retrying is off by default
/// (``RetryPolicy/none``): a screen usually prefers to show the error and let the
/// person retry.
public struct RetryPolicy: Sendable {
    /// How many attempts in all, the first included; 1 means no retry.
    public var maximumAttempts: Int
    /// The delay before the first retry.
    public var initialDelay: Duration
    /// The factor between one delay and the next.
    public var multiplier: Double
    /// The longest delay between attempts, jitter included.
    public var maximumDelay: Duration
    /// The share of a delay that jitter may add or remove, from 0 to 1.
    public var jitter: Double
    /// The longest `Retry-After` honoured; a server asking for more is not retried.
    public var maximumRetryAfter: Duration
    /// Whether `POST`, `PATCH` and other non-idempotent requests are retried too.
    public var retriesNonIdempotentRequests: Bool
    /// Where jitter comes from.
    public var random: RandomSource
    /// Called before each retry, with why and how long until it.
    public var onAttempt: (@Sendable (RetryAttempt) -> Void)?

    /// Creates a policy.
    ///
    /// - Parameters:
    ///   - maximumAttempts: How many attempts in all, the first included; 1 means no
    ///     retry, and less counts as 1.
    ///   - initialDelay: The delay before the first retry; 0.5 s by default.
    ///   - multiplier: The factor between one delay and the next; 2 by default.
    ///   - maximumDelay: The longest delay between attempts, jitter included; 30 s by
    ///     default.
    ///   - jitter: The share of a delay that jitter may add or remove, clamped to 0...1;
    ///     0.2 by default.
    ///   - maximumRetryAfter: The longest `Retry-After` honoured; a server asking for
    ///     more is not retried. 120 s by default.
    ///   - retriesNonIdempotentRequests: Whether `POST`, `PATCH` and other
    ///     non-idempotent requests are retried too; `false` by default.
    ///   - random: Where jitter comes from; ``RandomSource/system`` by default.
    ///   - onAttempt: Called before each retry, with why and how long until it; `nil`
    ///     by default.
    public init(
        maximumAttempts: Int,
        initialDelay: Duration = .milliseconds(500),
        multiplier: Double = 2,
        maximumDelay: Duration = .seconds(30),
        jitter: Double = 0.2,
        maximumRetryAfter: Duration = .seconds(120),
        retriesNonIdempotentRequests: Bool = false,
        random: RandomSource = .system,
        onAttempt: (@Sendable (RetryAttempt) -> Void)? = nil
    ) {
        self.maximumAttempts = max(1, maximumAttempts)
        self.initialDelay = initialDelay
        self.multiplier = multiplier
        self.maximumDelay = maximumDelay
        self.jitter = min(1, max(0, jitter))
        self.maximumRetryAfter = maximumRetryAfter
        self.retriesNonIdempotentRequests = retriesNonIdempotentRequests
        self.random = random
        self.onAttempt = onAttempt
    }

    /// No retry: every failure is final. The default.
    public static let none = RetryPolicy(maximumAttempts: 1)

    /// Three attempts, 0.5 s then 1 s apart (±20 %), capped at 30 s.
    public static let standard = RetryPolicy(maximumAttempts: 3)

    /// The delay before retry `retry` (1 for the first) without jitter.
    ///
    /// - Parameter retry: The number of the retry: 1 for the first, which is the second
    ///   attempt.
    /// - Returns: ``initialDelay`` times ``multiplier`` once per retry before it, at
    ///   most ``maximumDelay``.
    public func baseDelay(beforeRetry retry: Int) -> Duration {
        let factor = pow(multiplier, Double(max(0, retry - 1)))
        return min(maximumDelay, initialDelay * factor)
    }

    /// The delay before retry `retry` with jitter drawn from ``random``.
    ///
    /// - Parameter retry: The number of the retry: 1 for the first.
    /// - Returns: The base delay, moved by up to ``jitter`` of itself either way, at most
    ///   ``maximumDelay``.
    public func delay(beforeRetry retry: Int) -> Duration {
        let spread = 1 - jitter + 2 * jitter * random.next()
        return min(maximumDelay, baseDelay(beforeRetry: retry) * spread)
    }

    /// Whether `error`, from a request with `method`, may be retried.
    ///
    /// - Parameters:
    ///   - error: Why the attempt failed.
    ///   - method: The method of the request.
    /// - Returns: `true` for a transport failure or a 408, 429 or 5xx status, when the
    ///   method is idempotent or ``retriesNonIdempotentRequests`` is set.
    public func allowsRetry(of error: WebserviceError, method: HTTPMethod) -> Bool {
        guard method.isIdempotent || retriesNonIdempotentRequests else { return false }
        switch error {
        case .transport:
            return true
        case .badStatus(let failure):
            return failure.statusCode == 408 || failure.statusCode == 429
                || (500...599).contains(failure.statusCode)
        case .decoding, .cancelled, .responseTooLarge, .notModifiedWithoutCache, .queued,
            .outboxRefused, .authentication:
            return false
        }
    }
}
