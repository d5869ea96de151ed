import Foundation
import LoadingKit
import LoadingKitNetworking
import LoadingKitTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What an outside fault run broke in the disk cache, over real `URLSession` against a
/// loopback server: a credential in what is sent keeps a value off disk; a file that is
/// huge or not a file is refused before a byte is read; leftovers of killed writes are
/// swept and every file in the directory counts against the cap; a validator too large
/// to echo never makes a resource unloadable.
@MainActor
@Suite("The disk cache against faults", .timeLimit(.minutes(1)))
struct DiskCacheFaultTests {
    let server: LoopbackServer
    let temporary = TemporaryDirectory("loadingkit-disk-faults")
    var directory: URL { temporary.url }
    let lines = Locked<[String]>([])

    init() throws {
        server = try LoopbackServer()
        server.route("/posts") { _ in .json(Post.list([1, 2])).header("ETag", "\"v1\"") }
    }

    private var files: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
    }

    private var filesText: String {
        files.compactMap { try? Data(contentsOf: directory.appending(path: $0)) }
            .map { String(decoding: $0, as: UTF8.self) }.joined()
    }

    private func diskStore(maximumSize: Int = 50 << 20) -> DiskResourceStore {
        let lines = lines
        return DiskResourceStore(directory: directory, maximumSize: maximumSize) { line in
            lines.withLock { $0.append(line) }
        }
    }

    /// Loads `resource` through a webservice persisting to the directory, and waits
    /// until what it keeps is written.
    private func load(
        _ resource: Resource<[Post]>,
        transport: URLSessionTransport = URLSessionTransport(),
        credentialNames: Set<String> = []
    ) async throws {
        let webservice = Webservice(
            transport: transport,
            configuration: .init(persistentStore: diskStore(), credentialNames: credentialNames)
        )
        #expect(try await webservice.load(resource).map(\.id) == [1, 2])
        await webservice.persistPendingValues()
    }

    // MARK: - 1. Credentials in what is sent

    @Test(
        "a credential in what is sent keeps the value off disk",
        arguments: [
            "user and password in the URL", "Authorization the transport adds",
            "access_token in the query", "api_key in the query", "sig in the query",
            "X-API-Key header", "X-Auth-Token header",
        ]
    )
    func credentialsInWhatIsSentStayOffDisk(_ credential: String) async throws {
        var resource = Resource<[Post]>(url: server.url("/posts"))
        var transport = URLSessionTransport()
        switch credential {
        case "user and password in the URL":
            var components = try #require(
                URLComponents(url: server.url("/posts"), resolvingAgainstBaseURL: false)
            )
            components.user = "alice"
            components.password = "s3cret"
            resource = Resource(url: try #require(components.url))
        case "Authorization the transport adds":
            transport = URLSessionTransport(
                configuration: .init(additionalHeaders: ["Authorization": "Bearer s3cret"])
            )
        case "access_token in the query":
            resource = Resource(url: server.url("/posts?access_token=s3cret"))
        case "api_key in the query": resource = Resource(url: server.url("/posts?api_key=s3cret"))
        case "sig in the query": resource = Resource(url: server.url("/posts?page=2&sig=s3cret"))
        case "X-API-Key header": resource = resource.header("X-API-Key", "s3cret")
        default: resource = resource.header("X-Auth-Token", "s3cret")
        }

        try await load(resource, transport: transport)

        #expect(files.isEmpty)
        #expect(!filesText.contains("s3cret"))
    }

    @Test("a value without credentials is kept; a field the app names as a credential is not")
    func namedCredentialsStayOffDisk() async throws {
        let tenant = Resource<[Post]>(url: server.url("/posts?page=2")).header("X-Tenant", "acme")
        try await load(tenant)
        #expect(files.count == 1)

        diskStore().removeAll()
        try await load(tenant, credentialNames: ["x-tenant"])
        #expect(files.isEmpty)
    }

    // MARK: - 2. A huge file, or not a file

    @Test("a huge file under a record's name is refused by its size, before a byte is read")
    func hugeFileIsRefusedUnread() throws {
        let store = diskStore(maximumSize: 1 << 20)
        store.store(PersistedRecord(body: Data("[]".utf8)), forKey: "posts")
        let file = directory.appending(path: try #require(files.first))
        let handle = try FileHandle(forWritingTo: file)
        try handle.truncate(atOffset: 2 << 30)  // sparse: 2 GiB that take no disk
        try handle.close()

        #expect(store.record(forKey: "posts") == nil)

        #expect(files.isEmpty)
        #expect(lines.withLock { $0 }.contains { $0.contains("2147483648 bytes, over 1048576") })
    }

    @Test("a FIFO under a record's name is refused, not waited on")
    func fifoIsRefused() throws {
        let store = diskStore()
        store.store(PersistedRecord(body: Data("[]".utf8)), forKey: "posts")
        let file = directory.appending(path: try #require(files.first))
        try FileManager.default.removeItem(at: file)
        #expect(mkfifo(file.path(percentEncoded: false), 0o600) == 0)

        #expect(store.record(forKey: "posts") == nil)

        #expect(files.isEmpty)
        #expect(lines.withLock { $0 }.contains { $0.contains("not a file") })
    }

    @Test("a record larger than the cap is not written")
    func recordOverTheCapIsNotWritten() {
        let store = diskStore(maximumSize: 1_000)
        store.store(PersistedRecord(body: Data(repeating: 65, count: 2_000)), forKey: "posts")
        #expect(files.isEmpty)
        #expect(store.totalSize == 0)
    }

    // MARK: - 3. Leftovers and two processes

    @Test(
        "the temporary files of killed writes are swept when a store opens; a live process's fresh one stays"
    )
    func leftoversAreSwept() throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let ownProcess = ProcessInfo.processInfo.processIdentifier
        let gone = ".a.lkrs.\(Int32.max).tmp"  // no process has this number
        let fresh = ".b.lkrs.\(ownProcess).tmp"
        let stale = ".c.lkrs.\(ownProcess).tmp"
        for name in [gone, fresh, stale] {
            try Data(repeating: 0, count: 100).write(to: directory.appending(path: name))
        }
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -3_600)],
            ofItemAtPath: directory.appending(path: stale).path(percentEncoded: false)
        )

        let store = diskStore()
        store.store(PersistedRecord(body: Data("[]".utf8)), forKey: "posts")

        #expect(files.filter { $0.hasSuffix(".tmp") } == [fresh])
        #expect(files.count == 2)
        store.removeAll()
        #expect(files.isEmpty)
    }

    @Test("two stores sharing a directory, as two processes do, keep it within the cap together")
    func sharedDirectoryStaysWithinTheCap() {
        let (first, second) = (diskStore(maximumSize: 3_000), diskStore(maximumSize: 3_000))
        let body = Data(repeating: 65, count: 400)
        var largest = 0
        for number in 0..<20 {
            let store = number.isMultiple(of: 2) ? first : second
            store.store(PersistedRecord(body: body), forKey: "post \(number)")
            largest = max(largest, diskSize)
        }
        #expect(largest <= 3_000)
        #expect(first.record(forKey: "post 19") != nil)
        #expect(second.record(forKey: "post 18") != nil)
        first.removeAll()
        #expect(files.isEmpty)
    }

    @Test("a file named like a record that the store did not write is never counted or removed")
    func foreignFilesAreLeftAlone() throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let foreign = String(repeating: "ab", count: 16) + ".lkrs"
        let notes = ".notes.tmp"
        for name in [foreign, notes] {
            try Data(repeating: 7, count: 2_000).write(to: directory.appending(path: name))
        }
        let store = diskStore(maximumSize: 3_000)
        let body = Data(repeating: 65, count: 400)
        for number in 0..<10 {
            store.store(PersistedRecord(body: body), forKey: "post \(number)")
        }
        #expect(store.totalSize <= 3_000)
        #expect(store.totalSize > 2_000)
        #expect(files.contains(foreign))
        #expect(files.contains(notes))
        store.removeAll()
        #expect(files == [notes, foreign].sorted())
    }

    /// The bytes the files in the directory take.
    private var diskSize: Int {
        files.reduce(0) { total, name in
            let path = directory.appending(path: name).path(percentEncoded: false)
            let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size]
            return total + ((size as? NSNumber)?.intValue ?? 0)
        }
    }

    // MARK: - 4. A validator too large to echo

    @Test("a 64 KiB ETag is not kept: the next load asks without it and succeeds")
    func hugeEntityTagIsNotKept() async throws {
        let tag = "\"" + String(repeating: "e", count: 64 << 10) + "\""
        server.route("/huge") { request in
            if (request.header("If-None-Match")?.utf8.count ?? 0) > 8 << 10 { return .status(431) }
            return .json(Post.list([1, 2])).header("ETag", tag)
        }
        let webservice = Webservice(transport: URLSessionTransport())
        let resource = Resource<[Post]>(url: server.url("/huge"))

        _ = try await webservice.load(resource)
        _ = try await webservice.load(resource)
        let screen = PostsScreen(webservice: webservice)
        await screen.load(resource: resource, policy: .force)

        #expect(screen.ids == [1, 2])
        #expect(server.requests.allSatisfy { $0.header("If-None-Match") == nil })
        #expect(webservice.storedValue(for: resource)?.validators == nil)
    }

    @Test(
        "a conditional request the server refuses with 400 or 431 is sent once more without validators",
        arguments: [400, 431]
    )
    func refusedConditionsAreDropped(_ status: Int) async throws {
        let tag = "\"" + String(repeating: "e", count: 6 << 10) + "\""
        server.route("/tagged") { request in
            if request.header("If-None-Match") != nil { return .status(status) }
            return .json(Post.list([1, 2])).header("ETag", tag)
        }
        let webservice = Webservice(transport: URLSessionTransport())
        let screen = PostsScreen(webservice: webservice)
        let resource = Resource<[Post]>(url: server.url("/tagged"))
        await screen.load(resource: resource)

        await screen.load(resource: resource, policy: .force)

        #expect(screen.loadingState.error == nil)
        #expect(screen.ids == [1, 2])
        let conditions = server.requests.map { $0.header("If-None-Match") != nil }
        #expect(conditions == [false, true, false])
    }
}
