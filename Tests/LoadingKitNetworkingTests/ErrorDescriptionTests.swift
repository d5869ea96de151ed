import Foundation
import LoadingKitNetworking
import LoadingKitTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Error descriptions end up in logs and crash reports: one line with the kind, the
/// status or coding path, the method and the URL without query, fragment or user —
/// never a header value or text of the body, however the error is printed.
@Suite("Error descriptions", .timeLimit(.minutes(1)))
struct ErrorDescriptionTests {
    static let transport = URLSessionTransport(configuration: .init(timeout: 10))
    let secretURL = "/account?api_key=s3cret#frag-s3cret"

    /// Every way a person or a logger prints an error, or the failure it carries.
    func printed(_ error: WebserviceError) -> [String] {
        let failure: Any? =
            switch error {
            case .transport(let failure): failure
            case .badStatus(let failure): failure
            case .decoding(let failure): failure
            default: nil
            }
        return [error, failure as Any].flatMap { value -> [String] in
            var dumped = ""
            dump(value, to: &dumped)
            return [
                String(describing: value), String(reflecting: value), "\(value)", dumped,
                String(describing: [value]),
            ]
        }
    }

    func load<A: Sendable>(_ resource: Resource<A>) async -> WebserviceError? {
        do {
            _ = try await Webservice(transport: Self.transport).load(resource)
            return nil
        } catch {
            return error
        }
    }

    @Test("a bad status: status, method and URL, no body, header, query or fragment")
    func badStatus() async throws {
        let server = try LoopbackServer()
        server.route("/account") { _ in
            .text(
                "<html>\n<p>token s3cret</p>\n</html>",
                status: 403,
                headers: [("Set-Cookie", "session=s3cret")]
            )
        }
        let resource = Resource<Episode>(url: server.url(secretURL))
            .header("Authorization", "Bearer s3cret")
        let error = try #require(await load(resource))
        #expect(error.description == "Bad status 403 for GET \(server.url("/account"))")
        for text in printed(error) {
            #expect(!text.contains("s3cret"), "\(text)")
        }
        guard case .badStatus(let failure) = error else { return }
        #expect(failure.bodyText?.contains("token s3cret") == true)
    }

    @Test("a decoding failure: path and expectation, never the body's values")
    func decoding() async throws {
        let server = try LoopbackServer()
        server.route("/episode") { _ in .text(#"{"id": "s3cret", "title": "t"}"#) }
        let error = try #require(await load(Resource<Episode>(url: server.url("/episode"))))
        #expect(error.description.hasPrefix("Decoding failed at id for GET"))
        for text in printed(error) {
            #expect(!text.contains("s3cret"), "\(text)")
        }
        let keyed = try LoopbackServer()
        keyed.route("/sessions") { _ in .text(#"{"sessions": {"sk_s3cret": {"id": "x"}}}"#) }
        let byKey = try #require(
            await load(Resource<[String: [String: Episode]]>(url: keyed.url("/sessions")))
        )
        #expect(byKey.description.hasPrefix("Decoding failed at <key>.<key>.id for GET"))
        for text in printed(byKey) {
            #expect(!text.contains("s3cret"), "\(text)")
        }
        let garbage = try LoopbackServer()
        garbage.route("/episode") { _ in .text("s3cret<not json>") }
        let unreadable = try #require(await load(Resource<Episode>(url: garbage.url("/episode"))))
        for text in printed(unreadable) {
            #expect(!text.contains("s3cret"), "\(text)")
        }
    }

    @Test(
        "a body that is not what was asked for is told in words, once",
        arguments: [
            ("/object", #"{"id": 1}"#, "expected a list, found an object"),
            (
                "/html", "<!doctype html><html><body>Sign in</body></html>",
                "the answer is an HTML page, not JSON"
            ),
            ("/empty", "", "the answer is empty, not JSON"),
            ("/text", "rate limited", "the answer is not JSON"),
            ("/string", #"[{"id": "one", "title": "t"}]"#, "expected a number, found a string"),
        ]
    )
    func toldInWords(path: String, body: String, told: String) async throws {
        let server = try LoopbackServer()
        server.route(path) { _ in .text(body) }
        let error = try #require(await load(Resource<[Episode]>(url: server.url(path))))
        #expect(error.description.hasSuffix(": " + told), "\(error.description)")
        #expect(error.description.components(separatedBy: told).count == 2)
        for text in printed(error) {  // what the body says is never quoted
            #expect(!["Sign in", "rate limited", "one"].contains { text.contains($0) })
        }
    }

    @Test("a transport failure: no user, password, query or underlying error text")
    func transport() {
        let url = URL(string: "https://user:pa55@x.test/a?token=s3cret#s3cret")!
        let error = WebserviceError(
            transportError: URLError(.timedOut, userInfo: [NSURLErrorFailingURLErrorKey: url]),
            url: url,
            method: .get
        )
        #expect(
            error.description == "Transport failure for GET https://x.test/a: the request timed out"
        )
        for text in printed(error) {
            for leak in ["s3cret", "pa55", "user"] {
                #expect(!text.contains(leak), "\(leak) in \(text)")
            }
        }
    }

    @Test("a reply that is not HTTP, over a real socket, is named, not numbered")
    func replyNotHTTP() async throws {
        let server = try LoopbackServer()
        server.route("/ssh") { _ in .garbage(Data("SSH-2.0-OpenSSH_9.6\r\n".utf8)) }
        let error = try #require(await load(Resource<Episode>(url: server.url("/ssh"))))
        #expect(error.description.hasPrefix("Transport failure for GET \(server.url("/ssh")): "))
        #expect(!error.description.contains("URL error"), "\(error)")
    }

    @Test(
        "the common URL error codes are named",
        arguments: [
            URLError.Code.unsupportedURL, .badURL, .cannotParseResponse, .httpTooManyRedirects,
            .zeroByteResource, .dataLengthExceedsMaximum, .cannotDecodeContentData,
            .serverCertificateUntrusted, .userAuthenticationRequired, .resourceUnavailable,
            .dataNotAllowed, .requestBodyStreamExhausted, .fileDoesNotExist,
        ]
    )
    func namedCodes(code: URLError.Code) {
        let failure = WebserviceError.TransportFailure(underlying: URLError(code), url: nil)
        #expect(!failure.message.contains("URL error"), "\(code.rawValue): \(failure.message)")
    }

    @Test("a body over the limit names the method and the URL, without its query")
    func tooLarge() {
        let url = URL(string: "https://x.test/feed?token=s3cret")!
        let error = WebserviceError(
            transportError: WebserviceError.responseTooLarge(.init(limit: 4096)),
            url: url,
            method: .get
        )
        #expect(
            error.description
                == "Response larger than the limit of 4096 bytes for GET https://x.test/feed"
        )
    }

    @Test("every description is one line")
    func oneLine() async throws {
        let server = try LoopbackServer()
        server.route("/html") { _ in
            .text("<html>\n<body>\nNot found\n</body>\n</html>", status: 404)
        }
        let error = try #require(await load(Resource<Episode>(url: server.url("/html"))))
        #expect(!error.description.contains("\n"))
    }
}
