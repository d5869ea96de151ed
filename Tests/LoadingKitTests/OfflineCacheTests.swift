import Foundation
import LoadingKit
import LoadingKitNetworking
import LoadingKitTesting
import Testing

/// The offline cache: values survive a new webservice and show at once, stale, while
/// they revalidate; files that do not read back are removed; nothing with credentials
/// is kept unless asked; a failed write is a logged no-op.
@MainActor
@Suite("The offline cache", .timeLimit(.minutes(1)))
struct OfflineCacheTests {
    let mock = MockTransport()
    let temporary = TemporaryDirectory("loadingkit offline %20")
    var directory: URL { temporary.url }
    let posts = Resource<[Post]>(url: URL(string: "https://api.example.com/posts")!)

    private func webservice(
        _ store: DiskResourceStore,
        credentials: Bool = false,
        clock: ManualClock? = nil
    ) -> Webservice {
        var configuration = Webservice.Configuration(
            persistentStore: store,
            persistsCredentialedRequests: credentials
        )
        if let clock {
            configuration.clock = clock
        }
        return Webservice(transport: mock, configuration: configuration)
    }

    private var files: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
    }

    /// Loads `resource` through a first webservice and waits until it is written.
    private func persist(_ resource: Resource<[Post]>, credentials: Bool = false) async throws {
        mock.respond(to: "/posts", with: .json(Post.list([1, 2])).header("ETag", "\"v1\""))
        let first = webservice(DiskResourceStore(directory: directory), credentials: credentials)
        _ = try await first.load(resource)
        await first.persistPendingValues()
    }

    @Test("a cold start shows the persisted value at once, stale, and revalidates it")
    func coldStartShowsPersistedValue() async throws {
        try await persist(posts)
        let gate = MockTransport.Gate()
        mock.respond(to: "/posts", with: .status(304), after: gate)
        let webservice = webservice(DiskResourceStore(directory: directory))
        let screen = PostsScreen(webservice: webservice)
        let states = screen.states
        let task = screen.startLoading(resource: posts)
        await gate.waitForArrivals()
        for await state in states where state.content != nil { break }
        #expect(screen.ids == [1, 2])
        #expect(screen.loadingState.isLoading)
        #expect(webservice.storedValue(for: posts)?.isStale == true)
        gate.open()
        await task.finish()
        #expect(mock.requests.last?.value(forHTTPHeaderField: "If-None-Match") == "\"v1\"")
        #expect(screen.configured == [[1, 2]])
        #expect(!screen.loadingState.isLoading)
        #expect(webservice.storedValue(for: posts)?.isStale == false)
    }

    @Test(
        "a value its response keeps fresh shows after a relaunch with no request; revalidated once its lifetime ends",
        arguments: [
            ("max-age=60", [30: 0, 61: 1]),
            ("max-age=60, no-cache", [30: 1]),
            (nil, [30: 1]),
        ] as [(String?, [Int: Int])]
    )
    func freshValueNeedsNoRequestAfterARelaunch(
        cacheControl: String?,
        requestsAfter: [Int: Int]
    ) async throws {
        let clock = ManualClock()
        func launch() -> Webservice {
            webservice(DiskResourceStore(directory: directory), clock: clock)
        }
        var answer = MockResponse.json(Post.list([1, 2])).header("ETag", "\"v1\"")
        if let cacheControl {
            answer = answer.header("Cache-Control", cacheControl)
        }
        mock.respond(to: "/posts", with: answer)
        let first = launch()
        _ = try await first.load(posts)
        await first.persistPendingValues()
        mock.respond(to: "/posts", with: .status(304))
        var elapsed = 0
        for (seconds, requests) in requestsAfter.sorted(by: { $0.key < $1.key }) {
            clock.advance(by: .seconds(seconds - elapsed))
            elapsed = seconds
            let sent = mock.requests.count
            let relaunched = launch()
            let screen = PostsScreen(webservice: relaunched, clock: clock)
            await screen.load(resource: posts)
            #expect(screen.ids == [1, 2])
            #expect(mock.requests.count - sent == requests, "\(seconds) s after the answer")
            #expect(relaunched.storedValue(for: posts)?.isStale == false)
        }
    }

    /// What the first launch does after it stored the posts fresh for 60 seconds.
    enum ChangeSincePersisted: String, CaseIterable, Sendable {
        case invalidated, mutated, revalidatedAsNoCache
    }

    @Test(
        "a value an invalidation, a mutation or a 304 may have outdated reads back stale after a relaunch",
        arguments: ChangeSincePersisted.allCases
    )
    func changedSincePersisted(_ change: ChangeSincePersisted) async throws {
        let clock = ManualClock()
        func launch() -> Webservice {
            webservice(DiskResourceStore(directory: directory), clock: clock)
        }
        mock.respond(
            to: "/posts",
            with: .json(Post.list([1, 2])).header("ETag", "\"v1\"")
                .header("Cache-Control", "max-age=60")
        )
        let first = launch()
        _ = try await first.load(posts)
        switch change {
        case .invalidated:
            first.invalidate(.resource(posts))
        case .mutated:
            let like = try Resource<Post>(
                url: URL(string: "https://api.example.com/posts/1")!,
                method: .patch,
                body: Post(id: 1, title: "Liked")
            )
            mock.respond(to: "/posts/1", method: .patch, with: .json(Post(id: 1, title: "Liked")))
            _ = try await first.send(Mutation(like))
        case .revalidatedAsNoCache:
            mock.respond(to: "/posts", with: .status(304, headers: ["Cache-Control": "no-cache"]))
            _ = try await first.fetch(posts)
        }
        await first.persistPendingValues()
        clock.advance(by: .seconds(10))
        mock.respond(to: "/posts", with: .status(304))
        let sent = mock.requests.count
        let screen = PostsScreen(webservice: launch(), clock: clock)
        await screen.load(resource: posts)
        #expect(screen.ids == [1, 2])
        #expect(mock.requests.count == sent + 1)
        #expect(mock.requests.last?.value(forHTTPHeaderField: "If-None-Match") == "\"v1\"")
    }

    @Test("a value written at a time the clock has not reached is revalidated after a relaunch")
    func recordFromTheFutureIsRevalidated() async throws {
        let written = ManualClock()
        mock.respond(
            to: "/posts",
            with: .json(Post.list([1, 2])).header("ETag", "\"v1\"").header(
                "Cache-Control",
                "max-age=60"
            )
        )
        let first = webservice(DiskResourceStore(directory: directory), clock: written)
        _ = try await first.load(posts)
        await first.persistPendingValues()
        mock.respond(to: "/posts", with: .status(304))
        // The clock was set back ten seconds since.
        let setBack = ManualClock(date: written.currentDate.addingTimeInterval(-10))
        let relaunched = webservice(DiskResourceStore(directory: directory), clock: setBack)
        let screen = PostsScreen(webservice: relaunched, clock: setBack)
        await screen.load(resource: posts)
        #expect(screen.ids == [1, 2])
        #expect(mock.requests.count == 2)
        #expect(mock.requests.last?.value(forHTTPHeaderField: "If-None-Match") == "\"v1\"")
    }

    @Test("a loader on a cold start shows the persisted value as its load begins: no placeholder")
    func coldStartShowsPersistedValueInFirstFrame() async throws {
        try await persist(posts)
        let gate = MockTransport.Gate()
        mock.respond(to: "/posts", with: .status(304), after: gate)
        let screen = PostsScreen(webservice: webservice(DiskResourceStore(directory: directory)))
        let task = screen.startLoading(resource: posts)
        // Still in the main-actor turn that started the load.
        #expect(screen.ids == [1, 2])
        #expect(screen.loadingState.placeholder == .content)
        #expect(screen.loadingState.activity == .reloading)
        gate.open()
        await task.finish()
        #expect(screen.configured == [[1, 2]])
    }

    @Test("a store that is not quick to read is read off the main actor, as the request starts")
    func slowStoreIsReadOffTheMainActor() async throws {
        try await persist(posts)
        let slow = SlowStore(DiskResourceStore(directory: directory))
        let gate = MockTransport.Gate()
        mock.respond(to: "/posts", with: .status(304), after: gate)
        let screen = PostsScreen(
            webservice: Webservice(transport: mock, configuration: .init(persistentStore: slow))
        )
        // A read on the main actor would hold this call until the read is let go.
        let task = screen.startLoading(resource: posts)
        #expect(screen.loadingState.content == nil)
        await slow.readsStarted.wait(for: 1)
        slow.release.signal()
        await gate.waitForArrivals()
        #expect(slow.readsStarted.value == 1)
        gate.open()
        await task.finish()
        #expect(screen.ids == [1, 2])
    }

    @Test("a local edit is persisted: the next cold start shows the edited value")
    func localEditIsPersisted() async throws {
        try await persist(posts)
        let webservice = webservice(DiskResourceStore(directory: directory))
        let screen = PostsScreen(webservice: webservice)
        mock.respond(to: "/posts", with: .status(304))
        await screen.load(resource: posts)
        #expect(screen.edit(.removing(id: 1)))
        await webservice.persistPendingValues()

        let gate = MockTransport.Gate()
        mock.respond(to: "/posts", with: .status(304), after: gate)
        let restarted = PostsScreen(
            webservice: self.webservice(DiskResourceStore(directory: directory))
        )
        let task = restarted.startLoading(resource: posts)
        await gate.waitForArrivals()
        #expect(restarted.ids == [2])
        gate.open()
        await task.finish()
        #expect(restarted.ids == [2])
        #expect(mock.requests.last?.value(forHTTPHeaderField: "If-None-Match") == "\"v1\"")
    }

    @Test(
        "a corrupt, truncated or foreign file is ignored and removed",
        arguments: ["corrupt", "truncated", "foreign"]
    )
    func unreadableFilesAreRemoved(_ damage: String) async throws {
        try await persist(posts)
        let file = directory.appending(path: try #require(files.first))
        var data = try Data(contentsOf: file)
        switch damage {
        case "corrupt": data.replaceSubrange(data.count - 3..<data.count, with: Data("xyz".utf8))
        case "truncated": data.removeLast(5)
        default: data[4] = 99  // another format version
        }
        try data.write(to: file)
        let gate = MockTransport.Gate()
        mock.respond(to: "/posts", with: .json(Post.list([3])), after: gate)
        let webservice = webservice(DiskResourceStore(directory: directory))
        let screen = PostsScreen(webservice: webservice)
        let task = screen.startLoading(resource: posts)
        await gate.waitForArrivals()
        // Read and refused as the load began; nothing has written the file again yet.
        #expect(!FileManager.default.fileExists(atPath: file.path(percentEncoded: false)))
        #expect(screen.loadingState.content == nil)
        gate.open()
        await task.finish()
        #expect(screen.configured == [[3]])
        #expect(mock.requests.last?.value(forHTTPHeaderField: "If-None-Match") == nil)
    }

    @Test("a record reads back field for field, and no shorter prefix of its file reads at all")
    func recordsReadBackWhole() throws {
        let records = [
            PersistedRecord(
                body: Data("[{\"id\":1}]".utf8),
                entityTag: "W/\"é1\"",
                lastModified: "Wed, 21 Oct 2026 07:28:00 GMT",
                storedAt: Date(timeIntervalSince1970: 1_790_000_000.125),
                freshnessLifetime: .milliseconds(60_500)
            ),
            PersistedRecord(body: Data(), storedAt: Date(timeIntervalSince1970: 0)),
        ]
        for (index, record) in records.enumerated() {
            let key = "GET https://api.example.com/ünïcode/\(index)"
            let store = DiskResourceStore(directory: directory)
            store.store(record, forKey: key)
            #expect(store.record(forKey: key) == record)
            let file = directory.appending(path: try #require(files.first))
            let whole = try Data(contentsOf: file)
            for length in 0..<whole.count {
                try whole.prefix(length).write(to: file)
                #expect(DiskResourceStore(directory: directory).record(forKey: key) == nil)
            }
        }
    }

    @Test("a file of another key is not taken for this one")
    func foreignKeyIsRefused() throws {
        let store = DiskResourceStore(directory: directory)
        store.store(PersistedRecord(body: Data("[]".utf8)), forKey: "one")
        let one = try #require(files.first)
        store.store(PersistedRecord(body: Data("[2]".utf8)), forKey: "two")
        let two = try #require(files.first { $0 != one })
        // The file where "two" is kept now holds the whole, valid file of "one".
        try Data(contentsOf: directory.appending(path: one))
            .write(to: directory.appending(path: two))
        #expect(store.record(forKey: "one") != nil)
        #expect(DiskResourceStore(directory: directory).record(forKey: "two") == nil)
    }

    @Test(
        "nothing with credentials is persisted by default; it is when asked",
        arguments: ["Authorization", "Proxy-Authorization", "Cookie"]
    )
    func credentialsAreNotPersisted(_ field: String) async throws {
        let signedIn = posts.header(field, "secret")
        try await persist(signedIn)
        #expect(files.isEmpty)
        try await persist(signedIn, credentials: true)
        #expect(files.count == 1)
    }

    @Test("a write that fails is logged without secrets and changes nothing")
    func failedWriteIsLogged() async throws {
        try Data("a file, not a directory".utf8).write(to: directory)
        let lines = Locked<[String]>([])
        let store = DiskResourceStore(directory: directory) { line in
            lines.withLock { $0.append(line) }
        }
        store.store(PersistedRecord(body: Data("secret body".utf8)), forKey: "https://secret.key")
        #expect(store.record(forKey: "https://secret.key") == nil)
        let logged = lines.withLock { $0 }
        #expect(logged.count == 1)
        #expect(!logged.joined().contains("secret"))
    }

    @Test("past the size cap the least recently used files go")
    func sizeCapEvicts() throws {
        let store = DiskResourceStore(directory: directory, maximumSize: 700)
        let body = Data(repeating: 65, count: 200)
        store.store(PersistedRecord(body: body), forKey: "a")
        store.store(PersistedRecord(body: body), forKey: "b")
        _ = store.record(forKey: "a")
        store.store(PersistedRecord(body: body), forKey: "c")
        #expect(store.totalSize <= 700)
        #expect(store.record(forKey: "a") != nil)
        #expect(store.record(forKey: "b") == nil)
        #expect(store.record(forKey: "c") != nil)
    }

    @Test("removing the stored values empties the disk too")
    func removeStoredValuesEmptiesDisk() async throws {
        try await persist(posts)
        let webservice = webservice(DiskResourceStore(directory: directory))
        webservice.removeStoredValues()
        await webservice.persistPendingValues()
        #expect(files.isEmpty)
    }
}

/// A store that says it is slow to read, and is: each read waits until it is let go.
private final class SlowStore: ResourceStore {
    let base: DiskResourceStore
    /// Counts the reads begun; each waits for ``release``.
    let readsStarted = CounterSignal()
    let release = DispatchSemaphore(value: 0)

    init(_ base: DiskResourceStore) {
        self.base = base
    }

    var isQuickToRead: Bool { false }

    func record(forKey key: String) -> PersistedRecord? {
        readsStarted.increment()
        release.wait()
        return base.record(forKey: key)
    }

    func store(_ record: PersistedRecord, forKey key: String) {
        base.store(record, forKey: key)
    }

    func removeRecord(forKey key: String) {
        base.removeRecord(forKey: key)
    }

    func removeAll() {
        base.removeAll()
    }
}
