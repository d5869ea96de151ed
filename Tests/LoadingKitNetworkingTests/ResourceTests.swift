import Foundation
import LoadingKitNetworking
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Resource", .timeLimit(.minutes(1)))
struct ResourceTests {
    let url = URL(string: "https://api.example.com/episodes")!

    @Test("a JSON resource is a GET that asks for JSON and decodes the body")
    func jsonGet() throws {
        let resource = Resource<Episode>(url: url)
        #expect(resource.method == .get)
        #expect(resource.request.value(forHTTPHeaderField: "Accept") == "application/json")
        #expect(resource.request.httpBody == nil)
        let value = try resource.parse(Data(#"{"id":1,"title":"Pilot"}"#.utf8), response(200))
        #expect(value == Episode(id: 1, title: "Pilot"))
    }

    @Test("the method follows the request, however it is changed")
    func methodFollowsRequest() {
        var resource = Resource<Episode>(url: url)
        resource.request.httpMethod = "delete"
        #expect(resource.method == .delete)
        #expect(resource.identity.method == .delete)
        resource.request = URLRequest(url: url)
        #expect(resource.method == .get)
        let mapped = Resource<Episode>(url: url, method: .put).map { $0.title }
        #expect(mapped.method == .put)
    }

    @Test("query items and headers are added to the request")
    func queryAndHeaders() {
        let resource = Resource<[Episode]>(
            url: URL(string: "https://api.example.com/episodes?sort=new")!,
            query: [URLQueryItem(name: "page", value: "2")],
            headers: ["Authorization": "Bearer t"]
        )
        #expect(
            resource.request.url?.absoluteString
                == "https://api.example.com/episodes?sort=new&page=2"
        )
        #expect(resource.request.value(forHTTPHeaderField: "Authorization") == "Bearer t")
    }

    @Test("a method and an Accept field given replace the defaults, whatever the case")
    func givenMethodAndAccept() {
        let resource = Resource<Episode>(
            url: url,
            method: "delete",
            headers: ["accept": "application/vnd.api+json"]
        )
        #expect(resource.method == .delete)
        #expect(resource.request.allHTTPHeaderFields?.count == 1)
        #expect(
            resource.request.value(forHTTPHeaderField: "Accept") == "application/vnd.api+json"
        )
    }

    @Test("a JSON body is encoded with its content type, POST by default")
    func jsonBody() throws {
        let draft = Draft(title: "New", tags: ["a"])
        let resource = try Resource<Episode>(url: url, body: draft)
        #expect(resource.method == .post)
        #expect(resource.request.value(forHTTPHeaderField: "Content-Type") == "application/json")
        let body = try #require(resource.request.httpBody)
        #expect(try JSONDecoder().decode(Draft.self, from: body) == draft)
    }

    @Test("a Content-Type field given with a JSON body replaces the default, whatever the case")
    func givenContentType() throws {
        let resource = try Resource<Episode>(
            url: url,
            method: .patch,
            body: Draft(title: "New", tags: []),
            headers: ["content-type": "application/merge-patch+json"]
        )
        #expect(
            resource.request.value(forHTTPHeaderField: "Content-Type")
                == "application/merge-patch+json"
        )
        #expect(resource.request.allHTTPHeaderFields?.count == 2)
    }

    @Test("an injected decoder is used")
    func injectedDecoder() throws {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        struct Row: Decodable { let createdAt: Int }
        let resource = Resource<Row>(url: url, decoder: decoder)
        let row = try resource.parse(Data(#"{"created_at":5}"#.utf8), response(200))
        #expect(row.createdAt == 5)
    }

    @Test("map transforms the value and keeps request and accepted statuses")
    func map() throws {
        let resource = Resource<[Episode]>(url: url)
            .accepting(statusCodes: IndexSet([200, 404]))
            .map { $0.map(\.title) }
        #expect(resource.acceptableStatusCodes == IndexSet([200, 404]))
        #expect(resource.request.url == url)
        let titles = try resource.parse(Data(#"[{"id":1,"title":"A"}]"#.utf8), response(200))
        #expect(titles == ["A"])
    }

    @Test("timeouts are whole seconds and at least one")
    func timeoutRounding() {
        #expect(Resource<Episode>(url: url).timeout(0.2).request.timeoutInterval == 1)
        #expect(Resource<Episode>(url: url).timeout(1.5).request.timeoutInterval == 2)
    }

    @Test("ignoring the cache sets the flag and the request's cache policy")
    func ignoringCache() {
        let plain = Resource<Episode>(url: url)
        let ignoring = plain.ignoringCache().map { $0.title }
        #expect(!plain.ignoresCache)
        #expect(ignoring.ignoresCache)
        #expect(ignoring.request.cachePolicy == .reloadIgnoringLocalAndRemoteCacheData)
    }

    @Test("only the idempotent methods say so")
    func idempotence() {
        #expect(
            HTTPMethod.get.isIdempotent && HTTPMethod.put.isIdempotent
                && HTTPMethod.delete.isIdempotent
        )
        #expect(!HTTPMethod.post.isIdempotent && !HTTPMethod.patch.isIdempotent)
        #expect(HTTPMethod(rawValue: "get") == .get)
    }

    private func response(_ status: Int) -> HTTPURLResponse {
        HTTPURLResponse(url: url, statusCode: status, httpVersion: nil, headerFields: nil)!
    }
}
