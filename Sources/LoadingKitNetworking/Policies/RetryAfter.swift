import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A `Retry-After` header value (RFC 9110 §10.2.3): a number of seconds or an HTTP
/// date.
///
/// ```swift
/// RetryAfter("120")?.delay(from: now)                              // 120 s
/// RetryAfter("Fri, 31 Dec 1999 23:59:59 GMT")?.delay(from: now)   // .zero when past
/// ```
public enum RetryAfter: Sendable, Equatable {
    /// Wait this many seconds.
    case seconds(Int)
    /// Wait until this date.
    case date(Date)

    /// Parses a header value; `nil` when it is neither form.
    ///
    /// - Parameter value: The field value: a number of seconds or an HTTP date.
    public init?(_ value: String) {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if !trimmed.isEmpty, trimmed.utf8.allSatisfy({ (0x30...0x39).contains($0) }) {
            guard trimmed.utf8.count <= 9, let seconds = Int(trimmed) else { return nil }
            self = .seconds(seconds)
            return
        }
        guard let date = HTTPDate.parse(trimmed) else { return nil }
        self = .date(date)
    }

    /// The header of `response`, when present and valid.
    ///
    /// - Parameter response: The response whose `Retry-After` header field is read.
    public init?(response: HTTPURLResponse) {
        guard let value = response.value(forHTTPHeaderField: "Retry-After") else { return nil }
        self.init(value)
    }

    /// How long to wait from `now`; never negative.
    ///
    /// - Parameter now: The moment to count from, for a date.
    /// - Returns: The delay; `.zero` for a date already past.
    public func delay(from now: Date) -> Duration {
        switch self {
        case .seconds(let seconds):
            return .seconds(seconds)
        case .date(let date):
            let interval = max(0, date.timeIntervalSince(now))
            return .milliseconds(Int64((interval * 1000).rounded(.up)))
        }
    }
}
