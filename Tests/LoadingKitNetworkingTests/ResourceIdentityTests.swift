import Foundation
import LoadingKitNetworking
import LoadingKitTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Resource identity", .timeLimit(.minutes(1)))
struct ResourceIdentityTests {
    let url = URL(string: "https://api.example.com/episodes/1?token=abc#top")!

    @Test("the same request, value type and named parse are the same resource")
    func sameResource() {
        let decoder = JSONDecoder()
        #expect(Resource<Episode>(url: url).identity == Resource<Episode>(url: url).identity)
        #expect(
            Resource<Episode>(url: url, decoder: decoder).identity
                == Resource<Episode>(url: url, decoder: decoder).identity
        )
        let named = Resource<Episode>(url: url).map(identifiedBy: "title") { $0.title }
        #expect(
            named.identity
                == Resource<Episode>(url: url).map(identifiedBy: "title") { $0.title }.identity
        )
        #expect(
            Resource<Episode>(url: url).header("authorization", "Bearer a").identity
                == Resource<Episode>(url: url).header("Authorization", "Bearer a").identity
        )
    }

    @Test(
        "header fields count whatever order they were set in; the persistent key lists them by name"
    )
    func headerOrder() throws {
        let first = Resource<Episode>(url: url).header("X-B", "2").header("x-a", "1")
        let second = Resource<Episode>(url: url).header("X-A", "1").header("x-b", "2")
        #expect(first.identity == second.identity)
        #expect(first.identity.hashValue == second.identity.hashValue)
        #expect(first.identity != Resource<Episode>(url: url).header("x-a", "2").identity)
        // The fields part of a record's key on disk, as records already written have it.
        let key = try #require(first.identity.persistentKey(valueTypeName: "Episode"))
        let fields = key.split(separator: "\u{1F}", omittingEmptySubsequences: false)[2]
        #expect(fields == "accept: application/json\nx-a: 1\nx-b: 2")
    }

    @Test("an identity read before a change to its parts is computed anew; copies share it")
    func identityAfterChange() {
        var resource = Resource<Episode>(url: url)
        let plain = resource.identity
        let copy = resource
        #expect(copy.identity == plain)
        resource.request.setValue("1", forHTTPHeaderField: "X-A")
        let withField = resource.identity
        #expect(withField != plain)
        #expect(copy.identity == plain)
        #expect(resource.ignoringHeadersInIdentity("x-a").identity == plain)
        resource.acceptableStatusCodes = IndexSet(integer: 200)
        #expect(resource.identity != withField)
        #expect(
            resource.identity
                == Resource<Episode>(url: url)
                .header("X-A", "1")
                .accepting(statusCodes: IndexSet(integer: 200)).identity
        )
    }

    @Test("decoders set the same standard way are one parse; a custom strategy is its instance")
    func decoderSettings() {
        let snakeCase = Resource<Episode>(url: url, decoder: Self.snakeCaseDecoder()).identity
        #expect(snakeCase == Resource<Episode>(url: url, decoder: Self.snakeCaseDecoder()).identity)
        #expect(snakeCase.persistentKey(valueTypeName: "Episode") != nil)
        #expect(
            Resource<Episode>(url: url, decoder: JSONDecoder()).identity
                == Resource<Episode>(url: url).identity
        )
        let iso = JSONDecoder()
        iso.dateDecodingStrategy = .iso8601
        #expect(Resource<Episode>(url: url, decoder: iso).identity != snakeCase)
        let custom = Self.customDateDecoder()
        #expect(
            Resource<Episode>(url: url, decoder: custom).identity
                == Resource<Episode>(url: url, decoder: custom).identity
        )
        #expect(
            Resource<Episode>(url: url, decoder: custom).identity
                != Resource<Episode>(url: url, decoder: Self.customDateDecoder()).identity
        )
    }

    private static func snakeCaseDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return decoder
    }

    private static func customDateDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { _ in Date(timeIntervalSince1970: 0) }
        return decoder
    }

    @Test("anything that can change the value makes another resource")
    func otherResources() throws {
        let base = Resource<Episode>(url: url)
        var post = base
        post.request.httpMethod = "POST"
        let others: [ResourceIdentity] = [
            Resource<Episode>(url: URL(string: "https://api.example.com/episodes/2")!).identity,
            post.identity,
            base.header("Authorization", "Bearer bob").identity,
            base.header("Cookie", "session=1").identity,
            base.header("Accept-Language", "fr").identity,
            base.header("Accept", "text/html").identity,
            base.header("X-Tenant", "b").identity,
            try Resource<Episode>(url: url, method: .get, body: ["q": 1]).identity,
            base.accepting(statusCodes: IndexSet(200..<500)).identity,
            Resource<Episode>(url: url, decoder: Self.snakeCaseDecoder()).identity,
            Resource<Episode>(url: url, decoder: Self.customDateDecoder()).identity,
            base.map { $0 }.identity,
            base.map(identifiedBy: "same") { $0 }.identity,
            base.identified(by: "episode").identity,
            Resource<[Episode]>(url: url).identity,
        ]
        for (index, identity) in others.enumerated() {
            #expect(identity != base.identity, "resource \(index)")
        }
        #expect(Set(others).count == others.count)
    }

    @Test("an unnamed parse is unique: only copies of the same value share it")
    func unnamedParseIsUnique() {
        let mapped = Resource<Episode>(url: url).map { $0.title }
        let copy = mapped
        #expect(copy.identity == mapped.identity)
        #expect(Resource<Episode>(url: url).map { $0.title }.identity != mapped.identity)
        let custom = Resource<Int>(request: URLRequest(url: url)) { _, _ in 1 }
        #expect(
            Resource<Int>(request: URLRequest(url: url)) { _, _ in 1 }.identity != custom.identity
        )
        #expect(custom.identified(by: "one").identity == custom.identified(by: "one").identity)
    }

    @Test("an identity mapped by a key is the identity of the resource mapped by that key")
    func mappedIdentity() {
        let base = Resource<Episode>(url: url).header("Accept-Language", "fr")
        let mapped = base.map(identifiedBy: "title") { $0.title }
        #expect(base.identity.mapped(to: String.self, identifiedBy: "title") == mapped.identity)
        #expect(base.identity.mapped(to: String.self, identifiedBy: "name") != mapped.identity)
    }

    @Test("ignoring the cache and changing the timeout keep the identity")
    func loadOptionsKeepTheIdentity() {
        let base = Resource<Episode>(url: url)
        #expect(base.ignoringCache().identity == base.identity)
        #expect(base.timeout(30).identity == base.identity)
    }

    @Test("a header named as not varying the answer is left out of the identity")
    func ignoredHeaders() {
        let base = Resource<Episode>(url: url).ignoringHeadersInIdentity("X-Request-ID")
        #expect(
            base.header("X-Request-ID", "1").identity == base.header("x-request-id", "2").identity
        )
        #expect(
            base.map(identifiedBy: "t") { $0.title }.header("X-Request-ID", "3").identity
                == base.map(identifiedBy: "t") { $0.title }.identity
        )
    }

    @Test("descriptions, debug descriptions and dumps print no header value, query or user")
    func noSecretsInDescriptions() {
        let secret = Resource<Episode>(
            url: URL(string: "https://user:pass@api.example.com/episodes/1?token=abc#top")!
        ).header("Authorization", "Bearer s3cret").identity
        var dumped = ""
        dump(secret, to: &dumped)
        for text in [
            secret.description, secret.debugDescription, String(describing: secret), dumped,
        ] {
            #expect(text.contains("api.example.com/episodes/1"))
            for leak in ["s3cret", "token", "abc", "pass", "user", "#top"] {
                #expect(!text.contains(leak), "\(leak) in \(text)")
            }
        }
    }
}
