import Foundation
import LoadingKitNetworking
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("LinkHeader", .timeLimit(.minutes(1)))
struct LinkHeaderTests {
    let base = URL(string: "https://api.example.com/items?page=1")!

    @Test("several links in one value, with their relations")
    func severalLinks() {
        let header = LinkHeader(
            #"<https://x.test/p2>; rel="next", <https://x.test/p9>; rel="last""#
        )
        #expect(header.next == URL(string: "https://x.test/p2"))
        #expect(header.last == URL(string: "https://x.test/p9"))
        #expect(header.previous == nil)
        #expect(header.links.count == 2)
    }

    @Test(
        "a line break in a value reads as a space (RFC 9110 §5.5): no link of a folded value is lost",
        arguments: ["\r\n ", "\n\t", "\r"]
    )
    func foldedValue(_ lineBreak: String) {
        // RFC 8288's own examples, folded between and inside link values.
        let header = LinkHeader(
            #"<http://example.com/TheBook/chapter2>; rel="previous";"# + lineBreak
                + #"title="previous chapter","# + lineBreak
                + #"<http://example.com/TheBook/chapter4>;"# + lineBreak + #"rel="next""#
        )
        #expect(header.links.count == 2)
        #expect(header.previous == URL(string: "http://example.com/TheBook/chapter2"))
        #expect(header.links.first?.parameters["title"] == "previous chapter")
        #expect(header.next == URL(string: "http://example.com/TheBook/chapter4"))
    }

    @Test("several field values are read in order")
    func severalValues() {
        let header = LinkHeader(fieldValues: [
            "<https://x.test/a>; rel=prev", "<https://x.test/b>; rel=next",
        ])
        #expect(header.links.map(\.url.absoluteString) == ["https://x.test/a", "https://x.test/b"])
        #expect(header.previous == URL(string: "https://x.test/a"))
    }

    @Test("quoted parameters may hold commas, semicolons and escapes")
    func quotedParameters() {
        let header = LinkHeader(
            #"<https://x.test/a>; title="a, b; \"c\""; rel="next", <https://x.test/b>; rel=last"#
        )
        #expect(header.links.count == 2)
        #expect(header.links[0].parameters["title"] == #"a, b; "c""#)
        #expect(header.next == URL(string: "https://x.test/a"))
        #expect(header.last == URL(string: "https://x.test/b"))
    }

    @Test("a quote followed by a combining mark still opens a quoted string")
    func quoteBeforeCombiningMark() {
        // `"` and U+06E3 make one Character; the field value is read byte by byte.
        let header = LinkHeader(
            "<https://x.test/a>; title=\"\u{6E3}, <https://x.test/b>\"; rel=next"
        )
        #expect(header.links.map(\.url) == [URL(string: "https://x.test/a")!])
        #expect(header.links.first?.parameters["title"] == "\u{6E3}, <https://x.test/b>")
        #expect(header.next == URL(string: "https://x.test/a"))
    }

    @Test("rel holds several space-separated types, compared without case")
    func relationTypes() {
        let header = LinkHeader(#"<https://x.test/a>; REL="Next  Last""#)
        #expect(header.links.first?.relations == ["next", "last"])
        #expect(header.url(for: "NEXT") == URL(string: "https://x.test/a"))
        #expect(header.last == URL(string: "https://x.test/a"))
    }

    @Test("only the first rel parameter counts")
    func firstRelation() {
        let header = LinkHeader(#"<https://x.test/a>; rel=prev; rel=next"#)
        #expect(header.next == nil)
        #expect(header.previous == URL(string: "https://x.test/a"))
    }

    @Test("relative targets are resolved against the request URL")
    func relativeTargets() {
        let header = LinkHeader(
            #"</items?page=2>; rel="next", <page3>; rel="last""#,
            relativeTo: base
        )
        #expect(header.next?.absoluteString == "https://api.example.com/items?page=2")
        #expect(header.last?.absoluteString == "https://api.example.com/page3")
    }

    @Test(
        "malformed input yields no link, and is counted unless blank",
        arguments: [
            "", "   ", ",,,", "https://x.test/a; rel=next", "<https://x.test/a",
            "<https://x.test/a>; rel=\"next",
            "<https://x.test/a> rel=next", "<https://x.test/a>; =next", "<>>; rel=next; ;",
            "<https://x.test/a>; rel=next junk",
        ]
    )
    func malformed(value: String) {
        let header = LinkHeader(value)
        let isBlank = value.allSatisfy { $0 == " " || $0 == "," }
        #expect(header.next == nil)
        #expect(header.malformedValueCount == (isBlank ? 0 : 1))
    }

    @Test(
        "a malformed value never hides the next link, and common loose forms are accepted",
        arguments: [
            #"x<, <https://x.test/a>; rel="next""#,
            #"<https://x.test/bad> rel=prev, <https://x.test/a>; rel="next""#,
            #"<https://x.test/bad, <https://x.test/a>; rel=next"#,
            #"garbage; x=<y, <https://x.test/a>; rel=next"#,
            #"<https://x.test/a>; rel="next";"#,
            #"<https://x.test/a>; rel="next page""#,
            #"<https://x.test/a>; rel=next ; , <https://x.test/b>; rel=last"#,
            #"<https://x.test/1>; title="a, <https://x.test/a>; rel=next"#,
        ]
    )
    func recovers(value: String) {
        #expect(LinkHeader(value).next == URL(string: "https://x.test/a"))
    }

    @Test("a malformed field line does not hide the next one, joined or apart")
    func malformedFieldLine() {
        let lines = ["<https://x.test/bad> rel=prev", #"<https://x.test/a>; rel="next""#]
        let url = URL(string: "https://x.test/a")
        #expect(LinkHeader(fieldValues: lines).next == url)
        #expect(LinkHeader(lines.joined(separator: ", ")).next == url)
    }

    @Test("a target holding , and ; is kept whole")
    func targetWithSeparators() {
        let header = LinkHeader(#"<https://x.test/a?ids=1,2;v=3>; rel="next""#)
        #expect(header.next?.absoluteString == "https://x.test/a?ids=1,2;v=3")
    }

    @Test("a malformed link is dropped and the rest are kept")
    func malformedAmongGood() {
        let header = LinkHeader(
            #"<https://x.test/bad> rel=prev, garbage; x, <https://x.test/a>; rel=next"#
        )
        #expect(header.links.map(\.url.absoluteString) == ["https://x.test/a"])
        #expect(header.next == URL(string: "https://x.test/a"))
        // Skipped up to where a link value can start: one stretch, counted once.
        #expect(header.malformedValueCount == 1)
        #expect(LinkHeader(#"<https://x.test/a>; rel=next;"#).malformedValueCount == 0)
    }

    @Test("pathological input is parsed in one pass")
    func pathological() {
        let spaces = String(repeating: " ", count: 10_000)
        #expect(LinkHeader(spaces).links.isEmpty)
        #expect(LinkHeader("<a>;" + spaces + "rel=next").links.count == 1)
        let opens = String(repeating: "<", count: 200_000)
        #expect(LinkHeader(opens).links.isEmpty)
        let semicolons = "<https://x.test/a>" + String(repeating: "; a=b", count: 50_000)
        #expect(LinkHeader(semicolons).links.count == 1)
        let quotes = String(repeating: #"x""#, count: 100_000)
        #expect(LinkHeader(quotes).links.isEmpty)
        let quoted = String(repeating: #"<https://x.test/b>; t=", "#, count: 50_000)
        #expect(LinkHeader(quoted).links.count <= 50_000)
        let escaped = String(repeating: #"<https://x.test/b>; t="\, "#, count: 50_000)
        #expect(LinkHeader(escaped + "junk").links.count <= 50_000)
    }

    @Test("the recorded GitHub pages chain from the first to the last")
    func githubChain() throws {
        let exchanges = try RecordedExchange.scenario("paginate-issues")
        var nexts: [String] = []
        for (index, exchange) in exchanges.enumerated() {
            let requestURL = URL(string: "https://api.github.com" + exchange.path)!
            let header = LinkHeader(exchange.headers["link"] ?? "", relativeTo: requestURL)
            #expect((header.first != nil) == (index > 0))
            if let next = header.next {
                nexts.append(next.absoluteString)
            }
        }
        #expect(
            nexts
                == (2...5).map {
                    "https://api.github.com/repositories/1000/issues?per_page=3&page=\($0)"
                }
        )
    }

    @Test("a response without Link has no links")
    func responseWithoutLink() {
        let response = HTTPURLResponse(
            url: base,
            statusCode: 200,
            httpVersion: nil,
            headerFields: [:]
        )!
        #expect(LinkHeader(response: response).links.isEmpty)
    }
}
