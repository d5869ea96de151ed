import Foundation
import LoadingKitFixtures
import LoadingKitNetworking
import LoadingKitTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Retry", .timeLimit(.minutes(1)))
struct RetryTests {
    let mock = MockTransport()
    let clock = ManualClock()
    let episode = Resource<Episode>(url: URL(string: "https://api.example.com/episodes/1")!)
    let pilot = Episode(id: 1, title: "Pilot")

    func webservice(_ retry: RetryPolicy) -> Webservice {
        Webservice(transport: mock, configuration: .init(retry: retry, clock: clock))
    }

    func seeded(attempts: Int = 4) -> RetryPolicy {
        RetryPolicy(maximumAttempts: attempts, random: .seeded(7))
    }

    @Test("backoff delays are exponential with seeded jitter, exactly")
    func exactBackoff() async throws {
        mock.respond(to: "/episodes/1", with: .status(503))
        mock.fail("/episodes/1", with: URLError(.networkConnectionLost))
        mock.respond(to: "/episodes/1", with: .status(500))
        mock.respond(to: "/episodes/1", with: .json(pilot))
        let attempts = Locked<[RetryAttempt]>([])
        var policy = seeded()
        policy.onAttempt = { attempt in attempts.withLock { $0.append(attempt) } }
        let webservice = self.webservice(policy)
        let episode = self.episode
        let task = Task { try await webservice.load(episode) }
        // The same seed drawn in the same order gives the same delays.
        let reference = seeded()
        let drawn = (1...3).map { reference.delay(beforeRetry: $0) }
        for retry in 1...3 {
            await clock.waitForSleepers(retry)
            clock.advance(by: clock.sleeps[retry - 1])
        }
        #expect(try await task.valuePropagatingCancellation == pilot)
        #expect(clock.sleeps == drawn)
        #expect(
            zip(clock.sleeps, [0.5, 1.0, 2.0]).allSatisfy { sleep, base in
                let seconds =
                    Double(sleep.components.seconds) + Double(sleep.components.attoseconds) / 1e18
                return abs(seconds - base) <= base * 0.2 + 1e-9
            }
        )
        #expect(attempts.withLock { $0.map(\.number) } == [2, 3, 4])
        #expect(mock.requests.count == 4)
    }

    @Test("any Clock<Duration> times the backoff, one with instants of its own too")
    func backoffOnAnyClock() async throws {
        mock.respond(to: "/episodes/1", with: .status(503))
        mock.respond(to: "/episodes/1", with: .status(503))
        mock.respond(to: "/episodes/1", with: .json(pilot))
        let stepping = SteppingClock()
        let webservice = Webservice(
            transport: mock,
            configuration: .init(retry: seeded(), clock: stepping)
        )
        #expect(try await webservice.load(episode) == pilot)
        let reference = seeded()
        #expect(stepping.sleeps == (1...2).map { reference.delay(beforeRetry: $0) })
        #expect(clock.sleeps.isEmpty)
    }

    @Test("the delay never exceeds the cap")
    func cappedDelay() {
        let policy = RetryPolicy(maximumAttempts: 10, maximumDelay: .seconds(3), random: .seeded(1))
        #expect(policy.baseDelay(beforeRetry: 9) == .seconds(3))
        #expect((1...9).allSatisfy { policy.delay(beforeRetry: $0) <= .seconds(3) })
        #expect(RetryPolicy(maximumAttempts: 2, jitter: 0).delay(beforeRetry: 2) == .seconds(1))
    }

    @Test("Retry-After in seconds replaces the backoff on 429")
    func retryAfterSeconds() async throws {
        mock.respond(
            to: "/episodes/1",
            with: .text("slow down", status: 429, headers: ["Retry-After": "7"])
        )
        mock.respond(to: "/episodes/1", with: .json(pilot))
        let webservice = self.webservice(seeded())
        let episode = self.episode
        let task = Task { try await webservice.load(episode) }
        await clock.waitForSleepers(1)
        #expect(clock.sleeps == [.seconds(7)])
        clock.advance(by: .seconds(6))
        #expect(clock.sleeperCount == 1)
        clock.advance(by: .seconds(1))
        #expect(try await task.valuePropagatingCancellation == pilot)
    }

    @Test("Retry-After as an HTTP date counts from the clock's date on 503")
    func retryAfterDate() async throws {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        let date = formatter.string(from: clock.currentDate.addingTimeInterval(90))
        mock.respond(
            to: "/episodes/1",
            with: .text("maintenance", status: 503, headers: ["Retry-After": date])
        )
        mock.respond(to: "/episodes/1", with: .json(pilot))
        let webservice = self.webservice(seeded())
        let episode = self.episode
        let task = Task { try await webservice.load(episode) }
        await clock.waitForSleepers(1)
        #expect(clock.sleeps == [.seconds(90)])
        clock.run()
        #expect(try await task.valuePropagatingCancellation == pilot)
    }

    @Test("a Retry-After longer than the policy honours is not waited for")
    func retryAfterTooLong() async throws {
        mock.respond(
            to: "/episodes/1",
            with: .text("later", status: 503, headers: ["Retry-After": "3600"])
        )
        let webservice = self.webservice(seeded())
        let error = await #expect(throws: WebserviceError.self) {
            try await webservice.load(episode)
        }
        guard case .badStatus(let failure) = error else {
            Issue.record("expected the 503")
            return
        }
        #expect(failure.statusCode == 503)
        #expect(clock.sleeps.isEmpty)
    }

    @Test(
        "only idempotent methods are retried unless asked",
        arguments: [
            (HTTPMethod.post, false, 1), (.post, true, 2), (.put, false, 2), (.patch, false, 1),
        ]
    )
    func idempotence(method: HTTPMethod, retriesNonIdempotent: Bool, requests: Int) async throws {
        mock.respond(to: "/episodes/1", method: method, with: .status(503))
        mock.respond(to: "/episodes/1", method: method, with: .json(pilot))
        var policy = seeded(attempts: 2)
        policy.retriesNonIdempotentRequests = retriesNonIdempotent
        var resource = episode
        resource.request.httpMethod = method.rawValue
        let webservice = Webservice(
            transport: mock,
            configuration: .init(retry: policy, clock: clock)
        )
        let load = resource
        let task = Task { try await webservice.load(load) }
        if requests == 2 {
            await clock.waitForSleepers(1)
            clock.run()
            #expect(try await task.valuePropagatingCancellation == pilot)
        } else {
            await #expect(throws: WebserviceError.self) {
                try await task.valuePropagatingCancellation
            }
        }
        #expect(mock.requests.count == requests)
    }

    @Test("4xx other than 408 and 429, decoding errors and oversized bodies are final")
    func finalErrors() async throws {
        mock.respond(to: "/episodes/1", with: .status(404))
        mock.respond(to: "/episodes/1", with: .text("not json"))
        mock.fail("/episodes/1", with: WebserviceError.responseTooLarge(.init(limit: 10)))
        let webservice = self.webservice(seeded())
        for _ in 0..<3 {
            await #expect(throws: WebserviceError.self) { try await webservice.load(episode) }
        }
        #expect(mock.requests.count == 3)
        #expect(clock.sleeps.isEmpty)
        let policy = seeded()
        #expect(
            policy.allowsRetry(
                of: .badStatus(.init(statusCode: 408, headers: [:], body: Data(), url: nil)),
                method: .get
            )
        )
        #expect(!policy.allowsRetry(of: .cancelled, method: .get))
    }

    @Test("cancelling during the backoff stops at once, with no further request")
    func cancelDuringBackoff() async throws {
        mock.respond(to: "/episodes/1", with: .status(503))
        let webservice = self.webservice(seeded())
        let episode = self.episode
        let task = Task { try await webservice.load(episode) }
        await clock.waitForSleepers(1)
        task.cancel()
        await #expect(throws: WebserviceError.cancelled) {
            try await task.valuePropagatingCancellation
        }
        #expect(mock.requests.count == 1)
        #expect(clock.sleeperCount == 0)
    }

    @Test("the last error is reported when attempts run out")
    func attemptsRunOut() async throws {
        mock.respond(to: "/episodes/1", with: .status(502))
        mock.respond(to: "/episodes/1", with: .status(504))
        let webservice = self.webservice(seeded(attempts: 2))
        let episode = self.episode
        let task = Task { try await webservice.load(episode) }
        await clock.waitForSleepers(1)
        clock.run()
        let error = await #expect(throws: WebserviceError.self) {
            try await task.valuePropagatingCancellation
        }
        guard case .badStatus(let failure) = error else {
            Issue.record("expected the 504")
            return
        }
        #expect(failure.statusCode == 504)
    }

    @Test(
        "Retry-After values parse in both forms and refuse junk",
        arguments: [
            ("120", RetryAfter.seconds(120)),
            (" 0 ", .seconds(0)),
            ("Sun, 06 Nov 1994 08:49:37 GMT", .date(Date(timeIntervalSince1970: 784_111_777))),
            ("Sunday, 06-Nov-94 08:49:37 GMT", .date(Date(timeIntervalSince1970: 784_111_777))),
            ("Sun Nov  6 08:49:37 1994", .date(Date(timeIntervalSince1970: 784_111_777))),
            ("Thu, 29 Feb 2024 23:59:59 GMT", .date(Date(timeIntervalSince1970: 1_709_251_199))),
            ("Sat, 01 Jan 2000 00:00:00 GMT", .date(Date(timeIntervalSince1970: 946_684_800))),
        ]
    )
    func retryAfterParsing(value: String, expected: RetryAfter) {
        #expect(RetryAfter(value) == expected)
    }

    @Test(
        "junk Retry-After values are refused",
        arguments: [
            "", "-5", "1.5", "soon", "99999999999999", String(repeating: "9", count: 500),
            "Fri, 30 Feb 2024 00:00:00 GMT", "Sun, 06 Nov 1994 24:00:00 GMT",
            "Sun, 06 Nov 1994 08:49:37 PST",
            "Sun, 06 Foo 1994 08:49:37 GMT", "Sun, 6 Nov 94 08:49:37 GMT",
            "Sun, 06 Nov 1994 8:49:37 GMT",
        ]
    )
    func retryAfterJunk(value: String) {
        #expect(RetryAfter(value) == nil)
    }

    @Test("the input on which fuzzing found DateFormatter leaking is refused without it")
    func fuzzFinding() throws {
        let input = try #require(Data(base64Encoded: "srKysvKysrKysrImsC1UVA=="))
        #expect(RetryAfter(String(decoding: input.dropFirst(), as: UTF8.self)) == nil)
    }

    @Test("a past date waits nothing")
    func pastDate() {
        #expect(RetryAfter.date(Date(timeIntervalSince1970: 0)).delay(from: Date()) == .zero)
    }
}
