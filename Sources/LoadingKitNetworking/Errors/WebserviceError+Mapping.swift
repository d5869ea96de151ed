import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension WebserviceError {
    /// Maps whatever a transport threw to a webservice error.
    ///
    /// `CancellationError` and `URLError(.cancelled)` both mean the load was cancelled;
    /// a ``WebserviceError`` passes through unchanged.
    ///
    /// - Parameters:
    ///   - error: The error a transport threw.
    ///   - url: The URL that was requested.
    ///   - method: The method of the request.
    public init(transportError error: any Error, url: URL?, method: HTTPMethod? = nil) {
        switch error {
        case WebserviceError.responseTooLarge(let failure) where failure.url == nil:
            self = .responseTooLarge(SizeFailure(limit: failure.limit, url: url, method: method))
        case let error as WebserviceError:
            self = error
        case is CancellationError:
            self = .cancelled
        case let error as URLError where error.code == .cancelled:
            self = .cancelled
        default:
            self = .transport(TransportFailure(underlying: error, url: url, method: method))
        }
    }

    /// Maps whatever a parse function threw to a webservice error.
    ///
    /// A `DecodingError` gives its coding path and debug description; a
    /// ``WebserviceError`` passes through unchanged.
    ///
    /// - Parameters:
    ///   - error: The error a parse function threw.
    ///   - url: The URL whose body was parsed.
    ///   - method: The method of the request.
    public init(parseError error: any Error, url: URL?, method: HTTPMethod? = nil) {
        switch error {
        case let error as WebserviceError:
            self = error
        case let error as DecodingError:
            self = .decoding(DecodingFailure(decodingError: error, url: url, method: method))
        default:
            self = .decoding(
                DecodingFailure(
                    codingPath: "",
                    message: String(describing: error),
                    expectation: "\(type(of: error))",
                    url: url,
                    method: method
                )
            )
        }
    }

    /// The error for a response whose status was not accepted.
    static func status(
        _ response: HTTPURLResponse,
        body: Data,
        method: HTTPMethod? = nil
    ) -> WebserviceError {
        if response.statusCode == 304 {
            return .notModifiedWithoutCache(url: response.url)
        }
        var headers: [String: String] = [:]
        for case (let name as String, let value as String) in response.allHeaderFields {
            headers[name] = value
        }
        return .badStatus(
            StatusFailure(
                statusCode: response.statusCode,
                headers: headers,
                body: body,
                url: response.url,
                method: method
            )
        )
    }
}

extension WebserviceError.DecodingFailure {
    /// Creates a decoding failure from a `DecodingError`, keeping its coding path.
    init(decodingError error: DecodingError, url: URL?, method: HTTPMethod?) {
        let context: DecodingError.Context
        let detail: String
        switch error {
        case .typeMismatch(let type, let errorContext):
            context = errorContext
            detail = Self.mismatch(expected: type, context: errorContext)
        case .valueNotFound(let type, let errorContext):
            context = errorContext
            detail = "expected \(type) but found null"
        case .keyNotFound(let key, let errorContext):
            context = errorContext.appending(key)
            detail = "missing key \"\(key.stringValue)\""
        case .dataCorrupted(let errorContext):
            context = errorContext
            detail = "data corrupted"
        @unknown default:
            self.init(codingPath: "", message: String(describing: error), url: url, method: method)
            return
        }
        let underlying = (context.underlyingError as? NSError)?.localizedDescription
        let message = [detail, context.debugDescription, underlying]
            .compactMap { $0 }
            .filter { !$0.isEmpty }
            .joined(separator: ": ")
        self.init(
            codingPath: context.codingPath.pathDescription,
            message: message,
            expectation: detail,
            url: url,
            method: method
        )
        describedPath = context.codingPath.redactedPathDescription
    }
}

extension WebserviceError.DecodingFailure {
    /// A type mismatch in words, when the types are JSON's own: "expected a list,
    /// found an object"; else "expected Episode".
    fileprivate static func mismatch(expected type: Any.Type, context: DecodingError.Context)
        -> String
    {
        guard let expected = jsonKind(named: String(describing: type)) else {
            return "expected \(type)"
        }
        // The decoders say what they found in their description, in one of JSON's words.
        let found = context.debugDescription.firstMatch(of: /found an? ([a-z]+)/)
            .flatMap { jsonKind(named: String($0.output.1)) }
        return found.map { "expected \(expected), found \($0)" } ?? "expected \(expected)"
    }

    /// A JSON kind in words, from a Swift type's name or a decoder's word for a value.
    private static func jsonKind(named name: String) -> String? {
        switch name {
        case _ where name.hasPrefix("Array"), "array": "a list"
        case _ where name.hasPrefix("Dictionary"), "dictionary": "an object"
        case "String", "string": "a string"
        case "Bool", "bool": "true or false"
        case "number", "Double", "Float", "Decimal": "a number"
        case _ where name.hasPrefix("Int") || name.hasPrefix("UInt"): "a number"
        default: nil
        }
    }
}

extension WebserviceError {
    /// This error, told in words when it is a body that is not JSON at all: an HTML
    /// page, or nothing — judged by the `Content-Type` and the body's first character,
    /// never quoting it.
    func sayingWhatCame(_ body: Data, _ response: HTTPURLResponse) -> WebserviceError {
        guard case .decoding(let failure) = self, failure.codingPath.isEmpty,
            failure.expectation == "data corrupted", failure.message.contains("not valid JSON")
        else { return self }
        let type = (response.value(forHTTPHeaderField: "Content-Type") ?? "").lowercased()
        let first = body.first { !Character(UnicodeScalar($0)).isWhitespace }
        let what: String
        if type.contains("html") || first == UInt8(ascii: "<") {
            what = "the answer is an HTML page, not JSON"
        } else if first == nil {
            what = "the answer is empty, not JSON"
        } else {
            what = "the answer is not JSON"
        }
        return .decoding(
            DecodingFailure(
                codingPath: "",
                message: what + ": " + failure.message,
                expectation: what,
                url: failure.url,
                method: failure.method
            )
        )
    }
}

extension DecodingError.Context {
    fileprivate func appending(_ key: any CodingKey) -> DecodingError.Context {
        DecodingError.Context(
            codingPath: codingPath + [key],
            debugDescription: debugDescription,
            underlyingError: underlyingError
        )
    }
}

extension [any CodingKey] {
    /// The path as written in code: `items[3].title`.
    fileprivate var pathDescription: String { path(naming: { $0.stringValue }) }

    /// The path with the keys read from the body — a dictionary's keys, which can be
    /// e-mail addresses or tokens — shown as `<key>`: only the keys a model declares
    /// (`CodingKeys` enumerations) and indices are named.
    fileprivate var redactedPathDescription: String {
        path { key in Mirror(reflecting: key).displayStyle == .enum ? key.stringValue : "<key>" }
    }

    private func path(naming name: (any CodingKey) -> String) -> String {
        var path = ""
        for key in self {
            if let index = key.intValue {
                path += "[\(index)]"
            } else {
                path += path.isEmpty ? name(key) : ".\(name(key))"
            }
        }
        return path
    }
}
