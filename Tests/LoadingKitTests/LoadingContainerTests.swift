import Foundation
import LoadingKit
import LoadingKitTesting
import Testing

@MainActor
@Suite("LoadingContainer", .timeLimit(.minutes(1)))
struct LoadingContainerTests {
    struct Offline: Error {}

    @Test("a callback load builds the content")
    func buildsContent() async throws {
        let container = LoadingContainer(
            load: { callback in
                callback(.success(3))
            },
            build: { (count: Int) in
                String(repeating: "*", count: count)
            }
        )
        #expect(container.state.placeholder == .blank)
        await container.load()
        #expect(container.content == "***")
        #expect(container.state.placeholder == .content)
    }

    @Test("a failure shows the error; retry loads again and keeps content shown")
    func failureAndRetry() async throws {
        let attempts = Counter()
        let container = LoadingContainer(
            load: { callback in
                let attempt = attempts.next()
                callback(attempt == 1 ? .failure(Offline()) : .success(attempt))
            },
            build: { (value: Int) in "value \(value)" }
        )
        await container.load()
        #expect(container.state.placeholder == .error(.failed("Offline()")))
        await container.retry().finish()
        #expect(container.content == "value 2")
        await container.retry().finish()
        #expect(container.content == "value 3")
        #expect(container.state.error == nil)
    }

    @Test("a second callback is ignored")
    func secondCallbackIgnored() async throws {
        let container = LoadingContainer(
            load: { callback in
                callback(.success(1))
                callback(.success(2))
            },
            build: { (value: Int) in value }
        )
        await container.load()
        #expect(container.content == 1)
    }

    @Test("the resource initialiser loads through the webservice, empty values included")
    func resourceInitialiser() async throws {
        let mock = MockTransport()
        mock.respond(to: "/episodes", with: .json([Episode]()))
        let container = LoadingContainer(
            resource: Episode.all,
            webservice: Webservice(transport: mock)
        ) { episodes in episodes.count }
        await container.load()
        await container.load()
        #expect(container.content == 0)
        #expect(mock.requests.count == 1)
    }

    /// Counts calls from any thread.
    final class Counter: Sendable {
        private let value = Locked(0)
        func next() -> Int {
            value.withLock {
                $0 += 1
                return $0
            }
        }
    }
}
