import Foundation
import LoadingKitNetworking
import LoadingKitTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("HTTP cache directives", .timeLimit(.minutes(1)))
struct CacheDirectivesTests {
    let received = Date(timeIntervalSince1970: 1_800_000_000)

    func directives(_ headers: [String: String]) -> CacheDirectives {
        let response = HTTPURLResponse(
            url: URL(string: "https://api.example.com/a")!,
            statusCode: 200,
            httpVersion: "HTTP/1.1",
            headerFields: headers
        )!
        return CacheDirectives(response: response, receivedAt: received)
    }

    @Test(
        "Cache-Control, Age, Expires and Pragma read as RFC 9111 says",
        arguments: [
            ([:], CacheDirectives()),
            (["Cache-Control": "no-store"], CacheDirectives(forbidsStoring: true)),
            (["Cache-Control": "No-Cache"], CacheDirectives(requiresRevalidation: true)),
            (
                ["Cache-Control": #"private, no-cache="Set-Cookie", max-age=5"#],
                CacheDirectives(requiresRevalidation: true, freshnessLifetime: .seconds(5))
            ),
            (["Cache-Control": "max-age=60"], CacheDirectives(freshnessLifetime: .seconds(60))),
            (["Cache-Control": #"max-age="60""#], CacheDirectives(freshnessLifetime: .seconds(60))),
            (
                ["Cache-Control": "public,\tmax-age= 60 ,  no-cache\t"],
                CacheDirectives(requiresRevalidation: true, freshnessLifetime: .seconds(60))
            ),
            (["Cache-Control": "max-age=\u{A0}60"], CacheDirectives(freshnessLifetime: .zero)),
            (
                ["Cache-Control": "max-age=60", "Age": "25"],
                CacheDirectives(freshnessLifetime: .seconds(35))
            ),
            (
                ["Cache-Control": "max-age=10", "Age": "99"],
                CacheDirectives(freshnessLifetime: .zero)
            ),
            (["Cache-Control": "max-age=ten"], CacheDirectives(freshnessLifetime: .zero)),
            (["Cache-Control": "max-age=-5"], CacheDirectives(freshnessLifetime: .zero)),
            (
                ["Cache-Control": "max-age=30, max-age=10"],
                CacheDirectives(freshnessLifetime: .seconds(10))
            ),
            (
                ["Cache-Control": "max-age=9999999999999999999999"],
                CacheDirectives(freshnessLifetime: .seconds(999_999_999_999))
            ),
            (
                [
                    "Date": "Sun, 06 Nov 1994 08:49:37 GMT",
                    "Expires": "Sun, 06 Nov 1994 08:50:37 GMT",
                ],
                CacheDirectives(freshnessLifetime: .seconds(60))
            ),
            (["Expires": "0"], CacheDirectives(freshnessLifetime: .zero)),
            (
                ["Cache-Control": "max-age=5", "Expires": "Sun, 06 Nov 2094 08:50:37 GMT"],
                CacheDirectives(freshnessLifetime: .seconds(5))
            ),
            (["Pragma": "no-cache"], CacheDirectives(requiresRevalidation: true)),
            (["Cache-Control": "="], CacheDirectives()),
            (["Cache-Control": ",=,==, =5"], CacheDirectives()),
            (["Cache-Control": "max-age=60,="], CacheDirectives(freshnessLifetime: .seconds(60))),
            (["Cache-Control": "max-age"], CacheDirectives(freshnessLifetime: .zero)),
            (
                ["Pragma": "no-cache", "Cache-Control": "max-age=5"],
                CacheDirectives(freshnessLifetime: .seconds(5))
            ),
        ]
    )
    func parsing(headers: [String: String], expected: CacheDirectives) {
        #expect(directives(headers) == expected)
    }

    @Test("Expires without a Date counts from when the response was received")
    func expiresFromReceipt() {
        let expires = "Fri, 15 Jan 2027 08:00:20 GMT"
        let date = Date(timeIntervalSince1970: 1_799_999_990)
        let response = HTTPURLResponse(
            url: URL(string: "https://api.example.com/a")!,
            statusCode: 200,
            httpVersion: "HTTP/1.1",
            headerFields: ["Expires": expires]
        )!
        let lifetime = CacheDirectives(response: response, receivedAt: date).freshnessLifetime
        #expect(lifetime == .seconds(30))
    }
}
