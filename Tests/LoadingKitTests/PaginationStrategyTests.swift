import Foundation
import LoadingKit
import LoadingKitFixtures
import LoadingKitTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Each ready-made strategy against `MockTransport`, on real recorded responses.
@MainActor
@Suite("Pagination strategies", .timeLimit(.minutes(1)))
struct PaginationStrategyTests {
    let mock = MockTransport()
    let snakeCase: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return decoder
    }()
    let snakeCaseEncoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        return encoder
    }()
    let postsURL = URL(string: "https://jsonplaceholder.test/posts")!

    @Test("page number: pages until a short page")
    func pageNumber() async throws {
        let posts = try Fixtures.placeholderPosts.prefix(7)
        for (index, chunk) in stride(from: 0, to: 7, by: 3).enumerated() {
            let page = Array(posts[chunk..<min(chunk + 3, 7)])
            mock.respond(to: "/posts?_page=\(index + 1)&_limit=3", with: .json(page))
        }
        let screen = PagedScreen<PlaceholderPost, Int>(transport: mock) { [postsURL] page in
            .pageNumber(
                url: postsURL,
                page: page,
                size: 3,
                pageParameter: "_page",
                sizeParameter: "_limit"
            )
        }
        await screen.loadAllPages()
        #expect(screen.items == Array(posts))
        #expect(!screen.pagination.hasMorePages)
        #expect(screen.pagination.pagesLoaded == 3)
        try mock.verifyAllConsumed()
    }

    @Test("page number: X-Total-Count ends the list without asking for an empty page")
    func pageNumberTotalCount() async throws {
        let posts = try Fixtures.placeholderPosts.prefix(6)
        mock.respond(
            to: "/posts?page=1&per_page=3",
            with: .json(Array(posts[0..<3]), headers: ["X-Total-Count": "6"])
        )
        mock.respond(
            to: "/posts?page=2&per_page=3",
            with: .json(Array(posts[3..<6]), headers: ["X-Total-Count": "6"])
        )
        let screen = PagedScreen<PlaceholderPost, Int>(transport: mock) { [postsURL] page in
            .pageNumber(url: postsURL, page: page, size: 3)
        }
        await screen.loadAllPages()
        #expect(screen.items.count == 6)
        #expect(mock.requests.count == 2)
    }

    @Test("offset and limit: the next offset follows the items served")
    func offsetLimit() async throws {
        let posts = try Fixtures.placeholderPosts.prefix(5)
        mock.respond(to: "/posts?offset=0&limit=2", with: .json(Array(posts[0..<2])))
        mock.respond(to: "/posts?offset=2&limit=2", with: .json(Array(posts[2..<4])))
        mock.respond(to: "/posts?offset=4&limit=2", with: .json(Array(posts[4..<5])))
        let screen = PagedScreen<PlaceholderPost, Int>(transport: mock) { [postsURL] offset in
            .offset(url: postsURL, offset: offset, limit: 2)
        }
        await screen.loadAllPages()
        #expect(screen.items == Array(posts))
        #expect(screen.changes == [.replaced, .appended(2..<4), .appended(4..<5)])
        try mock.verifyAllConsumed()
    }

    struct SlackUser: Decodable, Sendable, Identifiable {
        let id: String
    }

    /// A member of the users list, which Slack sends as a bare name.
    struct SlackName: Decodable, Sendable, Identifiable, Equatable {
        let id: String
        init(from decoder: any Decoder) throws {
            id = try decoder.singleValueContainer().decode(String.self)
        }
    }

    struct SlackUsers: Decodable {
        struct Metadata: Decodable { let nextCursor: PageCursor? }
        let members: [SlackName]
        let responseMetadata: Metadata?
    }

    struct SlackChannels: Decodable {
        let channels: [SlackUser]
        let responseMetadata: SlackUsers.Metadata?
    }

    struct SlackConversations: Decodable {
        let conversations: [SlackUser]
        let nextCursor: PageCursor?
    }

    func slack(_ name: String) throws -> MockResponse {
        MockResponse(body: try Fixtures.data("slack/web_response_\(name).json"))
    }

    /// A screen of Slack's `users.list`, paged by the cursor in its envelope.
    func slackUsersScreen() -> PagedScreen<SlackName, String> {
        let decoder = snakeCase
        return PagedScreen(transport: mock) { cursor in
            .cursor(
                url: URL(string: "https://slack.test/users.list")!,
                cursor: cursor,
                envelope: SlackUsers.self,
                decoder: decoder,
                items: \.members,
                next: { $0.responseMetadata?.nextCursor }
            )
        }
    }

    @Test("cursor: an integer cursor, then an empty one")
    func cursorIntegerThenEmpty() async throws {
        mock.respond(to: "/users.list", with: try slack("users_list_pagination"))
        mock.respond(to: "/users.list?cursor=1", with: try slack("users_list_pagination_1"))
        let screen = slackUsersScreen()
        await screen.loadAllPages()
        #expect(screen.items.map(\.id) == ["Bob", "cat", "Kevin", "dog"])
        #expect(!screen.pagination.hasMorePages)
        try mock.verifyAllConsumed()
    }

    @Test("cursor: appearing again after the first page is a skip, not a reload")
    func cursorFirstPageIsOneResource() async throws {
        mock.respond(to: "/users.list", with: try slack("users_list_pagination"))
        let screen = slackUsersScreen()
        await screen.loadFirstPage()
        await screen.loadingDidAppear()?.finish()
        await screen.loadFirstPage()
        #expect(mock.requests.count == 1)
        #expect(screen.items.map(\.id) == ["Bob", "cat"])
        #expect(screen.pagination.pagesLoaded == 1)
    }

    @Test("cursor: the list ends when responseMetadata is missing")
    func cursorMissingMetadata() async throws {
        mock.respond(
            to: "/conversations.list",
            with: try slack("conversations_list_pagination_has_page2")
        )
        mock.respond(
            to: "/conversations.list?cursor=has_page3",
            with: try slack("conversations_list_pagination_has_page3")
        )
        let screen = PagedScreen<SlackUser, String>(transport: mock) { cursor in
            .cursor(
                url: URL(string: "https://slack.test/conversations.list")!,
                cursor: cursor,
                envelope: SlackChannels.self,
                decoder: snakeCase,
                items: \.channels,
                next: { $0.responseMetadata?.nextCursor }
            )
        }
        await screen.loadAllPages()
        #expect(screen.pagination.pagesLoaded == 2)
        #expect(!screen.pagination.hasMorePages)
        try mock.verifyAllConsumed()
    }

    @Test("cursor: a top-level cursor, ending empty")
    func cursorTopLevel() async throws {
        mock.respond(to: "/admin.conversations.search", with: try slack("admin_convo_pagination"))
        mock.respond(
            to: "/admin.conversations.search?cursor=1",
            with: try slack("admin_convo_pagination_1")
        )
        let screen = PagedScreen<SlackUser, String>(transport: mock) { cursor in
            .cursor(
                url: URL(string: "https://slack.test/admin.conversations.search")!,
                cursor: cursor,
                envelope: SlackConversations.self,
                decoder: snakeCase,
                items: \.conversations,
                next: \.nextCursor
            )
        }
        await screen.loadAllPages()
        #expect(screen.items.count == 1)
        #expect(screen.changes == [.replaced, .none])
        try mock.verifyAllConsumed()
    }

    struct Customer: Codable, Sendable, Identifiable, Equatable {
        let id: String
        let object: String
    }

    struct CustomerList: Codable, Sendable {
        let object: String
        let data: [Customer]
        let hasMore: Bool
    }

    @Test("hasMore: the next page starts after the last item's id")
    func startingAfter() async throws {
        let fixtures = try #require(Fixtures.json("stripe/fixtures3.json") as? [String: Any])
        let resources = try #require(fixtures["resources"] as? [String: Any])
        let recorded = try JSONSerialization.data(
            withJSONObject: try #require(resources["customer"])
        )
        let customer = try JSONDecoder().decode(Customer.self, from: recorded)
        let renamed = (1...3).map { Customer(id: "\(customer.id)_\($0)", object: customer.object) }
        mock.respond(
            to: "/v1/customers",
            with: .json(
                CustomerList(object: "list", data: Array(renamed[0..<2]), hasMore: true),
                encoder: snakeCaseEncoder
            )
        )
        mock.respond(
            to: "/v1/customers?starting_after=\(renamed[1].id)",
            with: .json(
                CustomerList(object: "list", data: [renamed[2]], hasMore: false),
                encoder: snakeCaseEncoder
            )
        )
        let screen = PagedScreen<Customer, String>(transport: mock) { after in
            .startingAfter(
                url: URL(string: "https://stripe.test/v1/customers")!,
                after: after,
                envelope: CustomerList.self,
                decoder: snakeCase,
                items: \.data,
                hasMore: \.hasMore,
                cursor: \.id
            )
        }
        await screen.loadAllPages()
        #expect(screen.items == renamed)
        #expect(customer.object == "customer")
        try mock.verifyAllConsumed()
    }

    /// The GitHub fixture, scripted on the mock by absolute URL.
    func scriptGitHubPages() throws -> [GitHubIssue] {
        let entries = try #require(
            Fixtures.json("octokit/paginate-issues.json") as? [[String: Any]]
        )
        var all: [GitHubIssue] = []
        for entry in entries {
            let path = try #require(entry["path"] as? String)
            let headers = (entry["headers"] as? [String: Any] ?? [:]).compactMapValues {
                $0 as? String
            }
            let body = try JSONSerialization.data(withJSONObject: try #require(entry["response"]))
            all += try JSONDecoder().decode([GitHubIssue].self, from: body)
            mock.respond(
                to: "https://api.github.com\(path)",
                with: MockResponse(
                    statusCode: 200,
                    headers: ["Link": headers["link"] ?? ""],
                    body: body
                )
            )
        }
        return all
    }

    @Test("Link header: the recorded GitHub issues arrive in order over five pages")
    func linkHeader() async throws {
        let expected = try scriptGitHubPages()
        let first = URL(
            string:
                "https://api.github.com/repos/octokit-fixture-org/paginate-issues/issues?per_page=3"
        )!
        let screen = PagedScreen<GitHubIssue, URL>(transport: mock) { next in
            .linked(url: next ?? first)
        }
        await screen.loadAllPages()
        #expect(screen.items == expected)
        #expect(screen.items.map(\.number) == Array((1...13).reversed()))
        #expect(screen.pagination.pagesLoaded == 5)
        try mock.verifyAllConsumed()
    }

    @Test(
        "Link header: a next page on another origin is not followed unless allowed",
        arguments: [false, true]
    )
    func crossOriginLink(allowed: Bool) async throws {
        mock.respond(
            to: "https://api.example.com/items",
            with: .json(
                [GitHubIssue(id: 1, number: 1, title: "a")],
                headers: ["Link": #"<https://evil.test/items?page=2>; rel="next""#]
            )
        )
        if allowed {
            mock.respond(
                to: "https://evil.test/items?page=2",
                with: .json([GitHubIssue(id: 2, number: 2, title: "b")])
            )
        }
        let first = URL(string: "https://api.example.com/items")!
        let screen = PagedScreen<GitHubIssue, URL>(transport: mock) { next in
            Resource.linked(url: next ?? first, allowsCrossOrigin: allowed).header(
                "Authorization",
                "token secret"
            )
        }
        await screen.loadAllPages()
        #expect(screen.items.count == (allowed ? 2 : 1))
        #expect(mock.requests.allSatisfy { $0.url?.host == "api.example.com" } == !allowed)
    }

    @Test("Link header: a port or scheme change is another origin")
    func origins() {
        let base = URL(string: "https://api.example.com/a")!
        #expect(URL(string: "https://API.example.com:443/b")!.sameOrigin(as: base))
        #expect(!URL(string: "http://api.example.com/b")!.sameOrigin(as: base))
        #expect(!URL(string: "https://api.example.com:8443/b")!.sameOrigin(as: base))
    }

    @Test("page cursors read strings, numbers and null; empty means none")
    func pageCursorDecoding() throws {
        let decoded = try JSONDecoder().decode(
            [PageCursor?].self,
            from: Data(#"["abc", 7, null, ""]"#.utf8)
        )
        #expect(decoded.map { $0?.value } == ["abc", "7", nil, nil])
    }
}

extension URL {
    /// The origin test of the `linked` strategy, seen from a test.
    func sameOrigin(as other: URL) -> Bool {
        let resource = Resource<Page<GitHubIssue, URL>>.linked(url: other)
        let response = HTTPURLResponse(
            url: other,
            statusCode: 200,
            httpVersion: nil,
            headerFields: ["Link": "<\(absoluteString)>; rel=next"]
        )!
        return (try? resource.parse(Data("[]".utf8), response).next) == self
    }
}
