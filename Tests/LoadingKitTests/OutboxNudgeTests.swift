import Foundation
import LoadingKitNetworking
import LoadingKitTesting
import Testing

/// When the outbox sends the writes that wait, on a scripted transport: what it learns
/// of its server from every answer, a pass that sends no write twice, and its one timer
/// however often it is nudged.
@Suite("When the outbox sends again", .timeLimit(.minutes(1)))
struct OutboxNudgeTests {
    let mock = MockTransport()
    let temporary = TemporaryDirectory("loadingkit-outbox-nudge")
    let recorder = EventRecorder()
    let away = URLError(.cannotConnectToHost)

    private func webservice(retry: OutboxRetry = .whenNudged, clock: ManualClock? = nil)
        -> Webservice
    {
        var configuration = Webservice.Configuration(
            monitor: recorder,
            outbox: Outbox(directory: temporary.url, retry: retry)
        )
        if let clock {
            configuration.clock = clock
        }
        return Webservice(transport: mock, configuration: configuration)
    }

    /// Keeps renames of posts 1 and 2 while their server is away: the first is tried
    /// and fails, the second waits behind it untried.
    private func keepTwoWritesWhileAway(on webservice: Webservice) async {
        mock.fail("/posts/1", method: .patch, with: away)
        for id in [1, 2] {
            await #expect(throws: WebserviceError.self) {
                try await webservice.send(try Post.rename(id: id, to: "Kept").keptUntilSent())
            }
        }
    }

    private func patches(_ id: Int) -> Int {
        mock.requestCount(for: "/posts/\(id)", method: .patch)
    }

    @Test(
        "a server a load found away and that answers again holds back no write: the next kept write is sent at once"
    )
    func answerAfterAnAwayLoad() async throws {
        let webservice = webservice()
        mock.fail("/posts/2", with: away)
        mock.respond(to: "/posts/2", with: .json(Post(2)))
        mock.respond(to: "/posts/1", method: .patch, with: .json(Post(id: 1, title: "Sent")))
        _ = try? await webservice.load(Post.resource(id: 2))
        _ = try await webservice.load(Post.resource(id: 2))

        let saved = try await webservice.send(try Post.rename(id: 1, to: "Sent").keptUntilSent())

        #expect(saved.title == "Sent")
        #expect(patches(1) == 1)
    }

    @Test(
        "a replayed write's own success does not send again, in the same resume, a write its server answered with an error"
    )
    func ownSuccessIsNoNudge() async throws {
        let webservice = webservice()
        await keepTwoWritesWhileAway(on: webservice)
        #expect(patches(2) == 0)  // its server was away
        mock.respond(to: "/posts/1", method: .patch, with: .text("busy", status: 503))
        mock.respond(to: "/posts/2", method: .patch, with: .json(Post(id: 2, title: "Kept")))

        await webservice.configuration.outbox?.resume()

        #expect(patches(1) == 2)
        #expect(patches(2) == 1)
        #expect(webservice.configuration.outbox?.pendingWrites.map(\.sequence) == [1])
    }

    @Test(
        "in a try of the outbox's own, a write's answer from a server found away does not send again a write that got a server error"
    )
    func ownAnswerInATimedTry() async throws {
        let clock = ManualClock()
        let webservice = webservice(retry: OutboxRetry(jitter: 0), clock: clock)
        await keepTwoWritesWhileAway(on: webservice)
        mock.respond(to: "/posts/1", method: .patch, with: .json(Post(id: 1, title: "Kept")))
        mock.respond(to: "/posts/2", method: .patch, with: .text("busy", status: 503))

        await clock.waitUntilSleeping(1)
        clock.advance(by: .seconds(1))
        await mock.waitForRequests(3)
        // The try ended and its timer sleeps until the next: the 503 was sent once.
        await clock.waitUntilSleeping(1)
        #expect(patches(1) == 2)
        #expect(patches(2) == 1)
        #expect(webservice.configuration.outbox?.pendingWrites.map(\.sequence) == [2])
    }

    @Test(
        "a server that answers one write with an error and drops the next makes no loop of tries"
    )
    func errorThenDropIsNoLoop() async throws {
        let webservice = webservice()
        await keepTwoWritesWhileAway(on: webservice)
        mock.respond(to: "/posts/1", method: .patch, with: .text("busy", status: 503))
        mock.fail("/posts/2", method: .patch, with: URLError(.networkConnectionLost))

        await webservice.configuration.outbox?.resume()

        #expect(patches(1) == 2)
        #expect(patches(2) == 1)
    }

    @Test(
        "nudges while a write waits move the one timer's next try instead of leaving a sleeping task each"
    )
    func oneTimer() async throws {
        let clock = ManualClock()
        let webservice = webservice(retry: OutboxRetry(jitter: 0), clock: clock)
        for _ in 0..<5 {
            mock.respond(to: "/posts/1", method: .patch, with: .text("busy", status: 503))
        }
        await #expect(throws: WebserviceError.self) {
            try await webservice.send(try Post.rename(id: 1, to: "Kept").keptUntilSent())
        }
        for _ in 0..<3 {
            await webservice.configuration.outbox?.resume()
        }
        #expect(patches(1) == 4)

        // Three tries that sent nothing: the next waits 8 s from the last, and the one
        // timer, asleep for the first try's 1 s, sleeps the 7 s left when it wakes.
        await clock.waitUntilSleeping(1)
        clock.advance(by: .seconds(1))
        await clock.waitUntilSleeping(1)
        #expect(patches(1) == 4)
        clock.advance(by: .seconds(7))
        await mock.waitForRequests(5)
        #expect(patches(1) == 5)
        #expect(clock.sleeps.contains(.seconds(7)))
        #expect(!clock.sleeps.contains(.seconds(2)) && !clock.sleeps.contains(.seconds(4)))
    }
}
