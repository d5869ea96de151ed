import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What makes two resources the same resource: everything that can change the value
/// a load of it produces.
///
/// ```swift
/// let posts = Resource<[Post]>(url: postsURL)
/// let first = posts.map(identifiedBy: "first") { Array($0.prefix(1)) }
/// posts.identity == Resource<[Post]>(url: postsURL).identity  // true
/// posts.identity == first.identity                            // false: another parse
/// ```
///
/// The rule: two resources share an identity when they have the same method, URL,
/// request header fields (names compared case-insensitively, values exactly — so
/// `Authorization`, `Cookie`, `Accept` and `Accept-Language` all count), body,
/// acceptable status codes, value type and parse. A parse is the same only when it is
/// named the same: the JSON initialisers name theirs (by the decoder's settings when
/// they are standard — keys as they are or from snake case, a standard date or data
/// strategy — else by the decoder instance), ``Resource/map(identifiedBy:_:)`` and ``Resource/identified(by:)`` name
/// theirs with your key, and every other parse — ``Resource/map(_:)``,
/// ``Resource/init(request:acceptableStatusCodes:parse:)`` — is unique to the resource
/// value it made. Resources of different identities never share a stored value,
/// validators, a coalesced request or a loader's "if needed" skip. A header that does
/// not change the answer, such as a request ID, can be left out with
/// ``Resource/ignoringHeadersInIdentity(_:)``.
///
/// An identity holds header values, so its descriptions print none of them.
public struct ResourceIdentity: Hashable, Sendable {
    /// Everything the identity holds, shared by its copies: a copy retains one object,
    /// and two copies of one identity are equal without their parts being compared.
    private let parts: Parts

    /// The request's method.
    public var method: HTTPMethod { parts.method }
    /// The request's URL as a string, compared exactly.
    var urlString: String { parts.urlString }

    init<A>(of resource: Resource<A>) {
        let request = resource.request
        let sent = request.allHTTPHeaderFields ?? [:]
        let outside = resource.headersOutsideIdentity
        var fields: [Field] = []
        fields.reserveCapacity(sent.count)
        for (name, value) in sent {
            let lowercased = name.lowercased()
            if outside.isEmpty || !outside.contains(lowercased) {
                fields.append(Field(name: lowercased, value: value))
            }
        }
        // Sorted, equal sets of fields are equal arrays, compared without hashing.
        fields.sort { $0.name < $1.name || $0.name == $1.name && $0.value < $1.value }
        parts = Parts(
            method: resource.method,
            urlString: request.url?.absoluteString ?? "",
            headers: fields,
            body: request.httpBody,
            acceptableStatusRanges: Array(resource.acceptableStatusCodes.rangeView),
            valueType: ObjectIdentifier(A.self),
            parse: resource.parseIdentity
        )
    }

    private init(parts: Parts) {
        self.parts = parts
    }

    private init(_ identity: ResourceIdentity, valueType: ObjectIdentifier, parse: ParseIdentity) {
        let parts = identity.parts
        self.parts = Parts(
            method: parts.method,
            urlString: parts.urlString,
            headers: parts.headers,
            body: parts.body,
            acceptableStatusRanges: parts.acceptableStatusRanges,
            valueType: valueType,
            parse: parse
        )
    }

    /// The request's URL.
    public var url: URL? { URL(string: urlString) }

    /// The identity of this resource mapped to a `B` by a transform named `key`: what
    /// `map(identifiedBy:_:)` of the resource has, without building the resource.
    package func mapped<B>(to type: B.Type, identifiedBy key: String) -> ResourceIdentity {
        ResourceIdentity(
            self,
            valueType: ObjectIdentifier(type),
            parse: parts.parse.appending(.named(key))
        )
    }

    /// The identity of the list of `B` a screen builds from pages of this resource,
    /// named `key`: what ``Resource/listed(by:_:)`` of the resource has. Stable across
    /// calls that build the page resource anew with an unnamed parse.
    package func listed<B>(as type: B.Type, by key: String) -> ResourceIdentity {
        ResourceIdentity(self, valueType: ObjectIdentifier(type), parse: parts.parse.listing(key))
    }

    /// A key naming this identity the same in every process, for a persistent store:
    /// everything the identity holds, the value type by `valueTypeName`; `nil` when the
    /// parse has no stable name (an unnamed closure, a decoder instance).
    package func persistentKey(valueTypeName: String) -> String? {
        guard parts.parse.isStable else { return nil }
        let fields = parts.headers.map { "\($0.name): \($0.value)" }
        let codes = parts.acceptableStatusRanges.map { "\($0.lowerBound)-\($0.upperBound)" }
        return [
            parts.method.rawValue, parts.urlString, fields.joined(separator: "\n"),
            parts.body?.base64EncodedString() ?? "", codes.joined(separator: ","), valueTypeName,
            parts.parse.description,
        ].joined(separator: "\u{1F}")
    }

    /// Whether two identities are of the same resource.
    ///
    /// - Parameters:
    ///   - lhs: One identity.
    ///   - rhs: The other.
    /// - Returns: Whether every part of the identities is equal.
    public static func == (lhs: ResourceIdentity, rhs: ResourceIdentity) -> Bool {
        lhs.parts === rhs.parts || lhs.parts.hasSameParts(as: rhs.parts)
    }

    /// Feeds the identity's precomputed hash to `hasher`.
    ///
    /// - Parameter hasher: The hasher to feed.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(parts.hash)
    }

    /// The identity of one resource value, computed at its first read: a resource
    /// makes a new one whenever a part of its identity changes.
    ///
    /// Not `AtomicLazyReference`: on Linux with Swift 6.3.1 each of its reads looks up
    /// generic metadata, which costs more than the read.
    final class Cache: Sendable {
        /// The address of the retained parts; 0 until they are computed.
        private let address = Atomic<UInt>(0)

        deinit {
            Self.parts(at: address.load(ordering: .acquiring))?.release()
        }

        /// The identity computed before, or else the one `compute` makes, kept.
        ///
        /// - Parameter compute: Computes the identity.
        /// - Returns: The identity.
        func identity(_ compute: () -> ResourceIdentity) -> ResourceIdentity {
            if let kept = Self.parts(at: address.load(ordering: .acquiring)) {
                return ResourceIdentity(parts: kept.takeUnretainedValue())
            }
            let computed = compute()
            let retained = Unmanaged.passRetained(computed.parts)
            let (stored, first) = address.compareExchange(
                expected: 0,
                desired: UInt(bitPattern: retained.toOpaque()),
                ordering: .acquiringAndReleasing
            )
            guard !stored, let first = Self.parts(at: first) else { return computed }
            retained.release()
            return ResourceIdentity(parts: first.takeUnretainedValue())
        }

        /// The parts at `address`; `nil` for 0.
        private static func parts(at address: UInt) -> Unmanaged<Parts>? {
            UnsafeRawPointer(bitPattern: address).map { Unmanaged<Parts>.fromOpaque($0) }
        }
    }

    /// A header field of the request, its name lowercased.
    private struct Field: Hashable, Sendable {
        let name: String
        let value: String
    }

    /// The parts of an identity, immutable.
    private final class Parts: Sendable {
        let method: HTTPMethod
        let urlString: String
        /// The header fields, sorted by name.
        let headers: [Field]
        let body: Data?
        /// The acceptable status codes, as the ranges of their `IndexSet`: comparing
        /// two arrays of ranges costs a fraction of comparing two index sets on Linux.
        let acceptableStatusRanges: [Range<Int>]
        let valueType: ObjectIdentifier
        let parse: ParseIdentity
        /// The hash of all the above, computed once: an identity is hashed several
        /// times per load (coalescing, stored values) and compared mostly with unequal
        /// ones.
        let hash: Int

        init(
            method: HTTPMethod,
            urlString: String,
            headers: [Field],
            body: Data?,
            acceptableStatusRanges: [Range<Int>],
            valueType: ObjectIdentifier,
            parse: ParseIdentity
        ) {
            self.method = method
            self.urlString = urlString
            self.headers = headers
            self.body = body
            self.acceptableStatusRanges = acceptableStatusRanges
            self.valueType = valueType
            self.parse = parse
            var hasher = Hasher()
            hasher.combine(method)
            hasher.combine(urlString)
            hasher.combine(headers)
            hasher.combine(body)
            hasher.combine(acceptableStatusRanges)
            hasher.combine(valueType)
            hasher.combine(parse)
            hash = hasher.finalize()
        }

        /// Whether `other` holds equal parts, the cheapest compared first.
        func hasSameParts(as other: Parts) -> Bool {
            hash == other.hash && urlString == other.urlString && method == other.method
                && valueType == other.valueType && parse == other.parse
                && headers == other.headers && body == other.body
                && acceptableStatusRanges == other.acceptableStatusRanges
        }
    }
}

// MARK: - Descriptions without secrets

extension ResourceIdentity: CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The method, the URL without query, fragment or user, how many header fields
    /// count, and the parse — never a header value, query or body.
    public var description: String {
        let fields = parts.headers.isEmpty ? "" : " +\(parts.headers.count) header fields"
        let location = url?.redacted ?? "<url>"
        return "\(method.rawValue) \(location)\(fields) (\(parts.parse))"
    }

    /// The same as ``description``.
    public var debugDescription: String { description }

    /// A mirror with the ``description`` only, so that `dump` prints no secret either.
    public var customMirror: Mirror {
        Mirror(self, children: ["description": description], displayStyle: .struct)
    }
}
