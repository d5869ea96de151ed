import Foundation
import LoadingKitNetworking
import LoadingKitTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Conditional revalidation", .timeLimit(.minutes(1)))
struct RevalidationTests {
    let mock = MockTransport()
    let url = URL(string: "https://api.example.com/episodes/1")!
    let pilot = Episode(id: 1, title: "Pilot")
    let parses = ParseCounter()

    /// The episode resource, counting its parses.
    var episode: Resource<Episode> {
        let parses = self.parses
        return Resource<Episode>(url: url).map(identifiedBy: "counted") { value in
            parses.count.withLock { $0 += 1 }
            return value
        }
    }

    final class ParseCounter: Sendable {
        let count = Locked(0)
    }

    @Test("an ETag is sent back byte for byte; a 304 answers with the stored value, undecoded")
    func entityTag() async throws {
        mock.respond(to: "/episodes/1", with: .json(pilot, headers: ["ETag": #"W/"a1b2""#]))
        mock.respond(to: "/episodes/1", with: .status(304, headers: ["ETag": #"W/"a1b2""#]))
        let webservice = Webservice(transport: mock)
        let first = try await webservice.fetch(episode)
        let second = try await webservice.fetch(episode)
        #expect(!first.isNotModified)
        #expect(second.isNotModified)
        #expect(second.value == pilot)
        #expect(second.validators == first.validators)
        #expect(parses.count.withLock { $0 } == 1)
        #expect(mock.requests[0].value(forHTTPHeaderField: "If-None-Match") == nil)
        #expect(mock.requests[1].value(forHTTPHeaderField: "If-None-Match") == #"W/"a1b2""#)
    }

    @Test("Last-Modified is sent back as If-Modified-Since")
    func lastModified() async throws {
        let date = "Tue, 10 Oct 2017 16:00:00 GMT"
        mock.respond(to: "/episodes/1", with: .json(pilot, headers: ["Last-Modified": date]))
        mock.respond(to: "/episodes/1", with: .json(Episode(id: 1, title: "New")))
        let webservice = Webservice(transport: mock)
        _ = try await webservice.load(episode)
        #expect(try await webservice.load(episode).title == "New")
        #expect(mock.requests[1].value(forHTTPHeaderField: "If-Modified-Since") == date)
    }

    @Test("validators are never sent to another URL or method")
    func scopedToURLAndMethod() async throws {
        mock.respond(to: "/episodes/1", with: .json(pilot, headers: ["ETag": #""v1""#]))
        mock.respond(to: "/episodes/2", with: .json(pilot))
        mock.respond(to: "/episodes/1", method: .delete, with: .json(pilot))
        let webservice = Webservice(transport: mock)
        _ = try await webservice.load(episode)
        _ = try await webservice.load(
            Resource<Episode>(url: url.deletingLastPathComponent().appending(path: "2"))
        )
        var delete = Resource<Episode>(url: url)
        delete.request.httpMethod = "DELETE"
        _ = try await webservice.load(delete)
        #expect(
            mock.requests.dropFirst().allSatisfy {
                $0.value(forHTTPHeaderField: "If-None-Match") == nil
            }
        )
    }

    @Test("ignoring the cache sends no validators")
    func ignoringCache() async throws {
        mock.respond(to: "/episodes/1", with: .json(pilot, headers: ["ETag": #""v1""#]))
        mock.respond(to: "/episodes/1", with: .json(pilot, headers: ["ETag": #""v2""#]))
        mock.respond(to: "/episodes/1", with: .status(304))
        let webservice = Webservice(transport: mock)
        _ = try await webservice.load(episode)
        _ = try await webservice.load(episode.ignoringCache())
        _ = try await webservice.load(episode)
        #expect(mock.requests[1].value(forHTTPHeaderField: "If-None-Match") == nil)
        #expect(mock.requests[2].value(forHTTPHeaderField: "If-None-Match") == #""v1""#)
    }

    @Test("a 304 with nothing stored is a typed error")
    func notModifiedWithoutStore() async throws {
        mock.respond(to: "/episodes/1", with: .status(304))
        await #expect(throws: WebserviceError.notModifiedWithoutCache(url: url)) {
            try await Webservice(transport: mock).load(episode)
        }
    }

    @Test("only the most recent URLs are kept")
    func capacity() async throws {
        let other = Resource<Episode>(url: URL(string: "https://api.example.com/episodes/2")!)
        mock.respond(to: "/episodes/1", with: .json(pilot, headers: ["ETag": #""1""#]))
        mock.respond(to: "/episodes/2", with: .json(pilot, headers: ["ETag": #""2""#]))
        mock.respond(to: "/episodes/1", with: .json(pilot))
        let webservice = Webservice(
            transport: mock,
            configuration: .init(storage: StorageLimits(maximumEntries: 1))
        )
        _ = try await webservice.load(episode)
        _ = try await webservice.load(other)
        _ = try await webservice.load(episode)
        #expect(mock.requests[2].value(forHTTPHeaderField: "If-None-Match") == nil)
    }

    @Test("revalidation can be turned off")
    func turnedOff() async throws {
        mock.respond(to: "/episodes/1", with: .json(pilot, headers: ["ETag": #""1""#]))
        mock.respond(to: "/episodes/1", with: .json(pilot))
        let webservice = Webservice(transport: mock, configuration: .init(revalidates: false))
        _ = try await webservice.load(episode)
        _ = try await webservice.load(episode)
        #expect(mock.requests[1].value(forHTTPHeaderField: "If-None-Match") == nil)
    }
}
