import Foundation
import LoadingKitNetworking
import LoadingKitTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("MockTransport", .timeLimit(.minutes(1)))
struct MockTransportTests {
    let mock = MockTransport()
    let base = "https://api.example.com"

    func request(_ path: String, method: HTTPMethod = .get) -> URLRequest {
        var request = URLRequest(url: URL(string: base + path)!)
        request.httpMethod = method.rawValue
        return request
    }

    func body(_ path: String, method: HTTPMethod = .get) async throws -> String {
        let (data, _) = try await mock.send(request(path, method: method))
        return String(decoding: data, as: UTF8.self)
    }

    @Test("responses for a route are consumed in order")
    func queuePerRoute() async throws {
        mock.respond(to: "/a", with: .text("first"))
        mock.respond(to: "/a", with: .text("second"))
        mock.respond(to: "/b", with: .text("other"))
        #expect(try await body("/a") == "first")
        #expect(try await body("/b") == "other")
        #expect(try await body("/a") == "second")
        try mock.verifyAllConsumed()
    }

    @Test("one response vocabulary: repeated header names, truncation and garbage")
    func sharedVocabulary() async throws {
        let headers: HeaderFields = [("Link", "<a>; rel=\"next\""), ("Link", "<b>; rel=\"last\"")]
        #expect(headers["link"] == "<a>; rel=\"next\"")
        mock.respond(to: "/links", with: .text("x", headers: headers))
        mock.respond(to: "/cut", with: .text("0123456789").truncated(afterBodyBytes: 4))
        mock.respond(to: "/noise", with: .garbage(Data("SSH-2.0\r\n".utf8)))
        let (_, response) = try await mock.send(request("/links"))
        #expect(
            response.value(forHTTPHeaderField: "Link") == "<a>; rel=\"next\", <b>; rel=\"last\""
        )
        await #expect(throws: URLError(.networkConnectionLost)) {
            try await mock.send(request("/cut"))
        }
        await #expect(throws: URLError(.badServerResponse)) {
            try await mock.send(request("/noise"))
        }
    }

    @Test("routes match by method, by path and query, or by absolute URL")
    func matching() async throws {
        mock.respond(to: "/a", method: .post, with: .text("post"))
        mock.respond(to: "/a", with: .text("get"))
        mock.respond(to: "/q?page=2", with: .text("page 2"))
        mock.respond(to: base + "/full?x=1", with: .text("absolute"))
        #expect(try await body("/a", method: .post) == "post")
        #expect(try await body("/a") == "get")
        #expect(try await body("/q?page=2") == "page 2")
        #expect(try await body("/full?x=1") == "absolute")
        #expect(mock.requestCount(for: "/a", method: .post) == 1)
        #expect(mock.requests.count == 4)
    }

    @Test("status and headers reach the HTTP response")
    func statusAndHeaders() async throws {
        mock.respond(to: "/a", with: .text("busy", status: 503, headers: ["Retry-After": "5"]))
        let (_, response) = try await mock.send(request("/a"))
        #expect(response.statusCode == 503)
        #expect(response.value(forHTTPHeaderField: "retry-after") == "5")
    }

    @Test("an unexpected request fails with an error that names it")
    func unexpected() async throws {
        mock.respond(to: "/a", with: .text("once"))
        _ = try await body("/a")
        let error = await #expect(throws: MockTransport.UnexpectedRequest.self) {
            try await body("/a")
        }
        #expect(error?.description.contains("unexpected GET \(base)/a") == true)
    }

    @Test("what was never requested is reported")
    func unconsumed() throws {
        mock.respond(to: "/a", with: .text("x"))
        mock.respond(to: "/b", method: .delete, with: .status(204))
        #expect(mock.unconsumed == ["GET /a", "DELETE /b"])
        let error = #expect(throws: MockTransport.Unconsumed.self) { try mock.verifyAllConsumed() }
        #expect(error?.routes == ["GET /a", "DELETE /b"])
    }

    @Test("scripted failures are thrown as given")
    func failures() async throws {
        mock.fail("/a", with: URLError(.timedOut))
        await #expect(throws: URLError(.timedOut)) { try await body("/a") }
    }

    @Test("gates let responses arrive in the order the test chooses")
    func gatesOrderResponses() async throws {
        let gate = MockTransport.Gate()
        mock.respond(to: "/a", with: .text("held"), after: gate)
        mock.respond(to: "/a", with: .text("free"))
        async let held = body("/a")
        await gate.waitForArrivals(1)
        #expect(try await body("/a") == "free")
        #expect(!gate.isOpen)
        gate.open()
        #expect(try await held == "held")
        #expect(gate.arrivals == 1)
    }

    @Test("an open gate lets later requests pass at once")
    func openGate() async throws {
        let gate = MockTransport.Gate()
        gate.open()
        mock.respond(to: "/a", with: .text("x"), after: gate)
        #expect(try await body("/a") == "x")
    }

    @Test("a request held at a gate ends as soon as its task is cancelled")
    func cancelHeld() async throws {
        let gate = MockTransport.Gate()
        mock.respond(to: "/a", with: .text("never"), after: gate)
        let mock = self.mock
        let request = self.request("/a")
        let task = Task { try await mock.send(request) }
        await gate.waitForArrivals(1)
        task.cancel()
        await #expect(throws: CancellationError.self) {
            try await task.valuePropagatingCancellation
        }
    }

    @Test("waiting for requests returns once they have arrived")
    func waitForRequests() async throws {
        mock.respond(to: "/a", with: .text("1"))
        mock.respond(to: "/a", with: .text("2"))
        let mock = self.mock
        let request = self.request("/a")
        Task {
            _ = try await mock.send(request)
            _ = try await mock.send(request)
        }
        await mock.waitForRequests(2)
        #expect(mock.requests.count == 2)
    }
}
