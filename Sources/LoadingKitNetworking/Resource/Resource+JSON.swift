import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// MARK: - where A: Decodable

extension Resource where A: Decodable & SendableMetatype {
    /// A resource that sends a request without a body and decodes a JSON response.
    ///
    /// ```swift
    /// let posts = Resource<[Post]>(url: baseURL.appending(path: "posts"),
    ///                              query: [URLQueryItem(name: "_page", value: "2")])
    /// ```
    ///
    /// - Parameters:
    ///   - url: The URL to load.
    ///   - method: The HTTP method; `GET` by default.
    ///   - query: Query items appended to the URL.
    ///   - headers: Header fields of the request; one named `Accept`, in any case,
    ///     replaces the default `application/json`.
    ///   - decoder: The decoder of the response body; `nil` for a default
    ///     `JSONDecoder`. Decoders set the same way — keys as they are or from snake
    ///     case, a standard date or data strategy, no `userInfo` — make one resource,
    ///     so one made per call is fine; one with a custom strategy or a date
    ///     formatter is known by its instance: pass the same one (a `static let`)
    ///     wherever the same resource is meant.
    public init(
        url: URL,
        method: HTTPMethod = .get,
        query: [URLQueryItem] = [],
        headers: [String: String] = [:],
        decoder: JSONDecoder? = nil
    ) {
        self.init(
            url: url,
            method: method,
            query: query,
            fields: acceptingJSON,
            headers: headers,
            body: nil,
            decoder: decoder
        )
    }

    /// A JSON resource whose request starts with the header fields `fields`, set whole,
    /// and carries `body`; `headers` then replace any of the same names.
    private init(
        url: URL,
        method: HTTPMethod,
        query: [URLQueryItem],
        fields: [String: String],
        headers: [String: String],
        body: Data?,
        decoder: JSONDecoder?
    ) {
        // The URL is made whole before the request is: setting a request's URL copies
        // the Foundation object behind it.
        var request = URLRequest(url: url.appendingQuery(query))
        // A new request is a `GET` with no fields: set only what differs, and the
        // fields whole — `setValue` checks and merges names, which on Linux costs more
        // than the rest of the resource.
        if method != .get {
            request.httpMethod = method.rawValue
        }
        request.allHTTPHeaderFields = fields
        request.httpBody = body
        // A default decoder holds no state a decode changes: one serves every resource.
        let decoding = decoder ?? JSONDecoder.shared
        self.init(request: request, parseIdentity: .json(decoder)) { data, _ in
            try decoding.decode(A.self, from: data)
        }
        if !headers.isEmpty {
            self = self.headers(headers)
        }
    }

    /// A resource that sends a JSON body and decodes a JSON response.
    ///
    /// ```swift
    /// let create = try Resource<Post>(url: postsURL, method: .post, body: draft)
    /// ```
    ///
    /// - Parameters:
    ///   - url: The URL to send the body to.
    ///   - method: The HTTP method; `POST` by default.
    ///   - body: The value sent as the JSON body.
    ///   - query: Query items appended to the URL.
    ///   - headers: Header fields of the request; one named `Accept` or
    ///     `Content-Type`, in any case, replaces the default `application/json`.
    ///   - encoder: The encoder of the body.
    ///   - decoder: The decoder of the response body; `nil` for a default
    ///     `JSONDecoder`.
    /// - Throws: `EncodingError` when `body` cannot be encoded.
    public init<Body: Encodable>(
        url: URL,
        method: HTTPMethod = .post,
        body: Body,
        query: [URLQueryItem] = [],
        headers: [String: String] = [:],
        encoder: JSONEncoder = JSONEncoder(),
        decoder: JSONDecoder? = nil
    ) throws {
        self.init(
            url: url,
            method: method,
            query: query,
            fields: sendingJSON,
            headers: headers,
            body: try encoder.encode(body),
            decoder: decoder
        )
    }
}

/// The header fields of a new JSON resource, made once.
private let acceptingJSON = ["Accept": "application/json"]

/// The header fields of a new JSON resource with a JSON body, made once.
private let sendingJSON = ["Accept": "application/json", "Content-Type": "application/json"]
