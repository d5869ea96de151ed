import Foundation
import LoadingKit
import LoadingKitNetworking
import LoadingKitTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The outbox, over real `URLSession` against a loopback server that honours
/// `Idempotency-Key`: a write kept until sent is on disk before it is sent, waits while
/// its server is away with its change shown, is sent again in order when the server
/// answers, leaves on a `4xx` with its change taken back, survives a relaunch, and never
/// writes a credential.
@MainActor
@Suite("The outbox", .timeLimit(.minutes(1)))
struct OutboxTests {
    let server: IdempotentPostServer
    let temporary = TemporaryDirectory("loadingkit-outbox")
    var directory: URL { temporary.url }
    let recorder = EventRecorder()

    init() throws {
        server = try IdempotentPostServer(posts: [1, 2])
    }

    private func webservice(
        outbox: Outbox? = nil,
        persistentStore: (any ResourceStore)? = nil,
        authenticator: Authenticator? = nil
    ) -> Webservice {
        Webservice(
            transport: URLSessionTransport(),
            configuration: .init(
                persistentStore: persistentStore,
                monitor: recorder,
                outbox: outbox ?? Outbox(directory: directory, retry: .whenNudged),
                authenticator: authenticator
            )
        )
    }

    private var files: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
    }

    /// A detail screen showing post 1.
    private func screen(on webservice: Webservice) async -> DetailScreen {
        let screen = DetailScreen(webservice: webservice)
        await screen.load(resource: server.resource(ofPost: 1))
        return screen
    }

    /// Returns once `count` events of the kind `matches` says have been recorded.
    private func waitFor(
        _ count: Int,
        _ matches: @escaping @Sendable (LoadingEvent.Kind) -> Bool
    ) async {
        await recorder.waitForEvents(count) { matches($0.kind) }
    }

    /// Returns once a sleep of `duration` has started on `clock`.
    private static func waitForSleep(of duration: Duration, on clock: ManualClock) async {
        while !Task.isCancelled {
            let sleeps = clock.sleeps
            guard !sleeps.contains(duration) else { return }
            await clock.waitForSleepers(sleeps.count + 1)
        }
    }

    private static let confirmed: @Sendable (LoadingEvent.Kind) -> Bool = { kind in
        if case .writeConfirmed = kind { return true }
        return false
    }

    /// Sends `mutation`, expecting it to be queued; returns the write.
    @discardableResult
    private func sendQueued(_ mutation: Mutation<Post>, from screen: DetailScreen) async
        -> QueuedWrite?
    {
        do {
            _ = try await screen.send(mutation)
        } catch .webservice(.queued(let write)) {
            return write
        } catch {
            Issue.record("expected the write to be queued, got \(error)")
        }
        return nil
    }

    @Test(
        "a kept write is on disk while it is sent, sends an Idempotency-Key, and leaves once confirmed"
    )
    func keptWhileSent() async throws {
        let screen = await screen(on: webservice())
        let directory = directory
        let filesWhileSent = Locked<[String]>([])
        server.state.withLock { state in
            state.onPatch = {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path))
                filesWhileSent.withLock { $0 = names ?? [] }
            }
        }

        let saved = try await screen.send(server.rename(1, to: "Kept").keptUntilSent())

        #expect(saved.title == "Kept")
        #expect(filesWhileSent.withLock { $0 } == ["0000000000000001.lkob"])
        #expect(files.isEmpty)
        #expect(server.titles[1] == "Kept")
        #expect(server.patchKeys.count == 1)
        #expect(server.patchKeys.first??.isEmpty == false)
        #expect(screen.loadingState.content?.title == "Kept")
        #expect(recorder.events.contains { $0.kind == .writeKept(sequence: 1) })
        #expect(recorder.events.contains { $0.kind == .writeConfirmed(sequence: 1) })
    }

    @Test(
        "a write while the server is away is queued, its change stays shown, and it is sent when the server answers again"
    )
    func queuedWhileAway() async throws {
        let webservice = webservice()
        let screen = await screen(on: webservice)
        server.stop()

        let write = await sendQueued(
            try server.rename(1, to: "Offline").keptUntilSent(),
            from: screen
        )

        #expect(write?.sequence == 1)
        #expect(screen.loadingState.content?.title == "Offline")
        #expect(webservice.configuration.outbox?.pendingWrites.map(\.sequence) == [1])
        #expect(files == ["0000000000000001.lkob"])
        #expect(recorder.events.contains { $0.kind == .writeQueued(sequence: 1) })

        try server.start()
        // Any answer from the server's origin sends the writes waiting for it.
        await screen.load(resource: server.resource(ofPost: 2))
        await waitFor(1, Self.confirmed)

        #expect(server.titles[1] == "Offline")
        // The first try found no server; the second carried the same key.
        #expect(server.patchKeys == [write?.idempotencyKey])
        #expect(server.appliedTitles == ["Offline"])
        #expect(webservice.configuration.outbox?.pendingWrites.isEmpty == true)
        #expect(files.isEmpty)
    }

    @Test(
        "a write the server applied before its answer was lost is replayed once, and its earlier answer is revalidated, never shown as current"
    )
    func appliedBeforeItsAnswerWasLost() async throws {
        let clock = ManualClock()
        let arrived = CounterSignal()
        let release = DispatchSemaphore(value: 0)
        server.state.withLock { state in
            state.onPatch = {
                arrived.increment()
                if arrived.value == 1 { release.wait() }
            }
        }
        let outbox = Outbox(directory: directory, retry: .whenNudged)
        let webservice = Webservice(
            transport: URLSessionTransport(configuration: .init(clock: clock)),
            configuration: .init(monitor: recorder, outbox: outbox)
        )
        let screen = await screen(on: webservice)
        let post = server.resource(ofPost: 1)
        let mutation = try server.rename(1, to: "First").storingAnswer(as: post).keptUntilSent()

        // The server has the write when the client gives up waiting for its answer.
        let sending = Task { await sendQueued(mutation, from: screen) }
        await arrived.wait(for: 1)
        clock.advance(by: .seconds(120))
        let write = await sending.valuePropagatingCancellation
        release.signal()
        await server.applies.wait(for: 1)
        // Another client renames the post before the write is sent again.
        server.state.withLock { $0.titles[1] = "Second" }

        await outbox.resume()
        await screen.load(resource: post, policy: .ifNeeded)

        // The server answers the replay with its first answer, which it applied once;
        // the screen shows the post as the server holds it now.
        #expect(server.appliedTitles == ["First"])
        #expect(server.patchKeys == [write?.idempotencyKey, write?.idempotencyKey])
        #expect(screen.loadingState.content?.title == "Second")
        #expect(webservice.storedValue(for: post)?.value.title == "Second")
        #expect(outbox.pendingWrites.isEmpty)
    }

    @Test(
        "a kept write waits while no one is signed in, is never sent with another account's credential, and goes once its account is back"
    )
    func keptWriteFollowsItsAccount() async throws {
        let authenticator = Authenticator(credential: Credential(account: "alice", bearer: "a1")) {
            $0
        }
        let outbox = Outbox(directory: directory, retry: .whenNudged)
        let webservice = Webservice(
            transport: URLSessionTransport(),
            configuration: .init(monitor: recorder, outbox: outbox, authenticator: authenticator)
        )
        let screen = await screen(on: webservice)
        server.stop()
        await sendQueued(try server.rename(1, to: "Alice's").keptUntilSent(), from: screen)
        try server.start()

        webservice.signOut()
        await outbox.resume()
        #expect(server.patchKeys.isEmpty)  // nothing sent with no credential

        authenticator.signIn(Credential(account: "bob", bearer: "b1"))
        await outbox.resume()
        await screen.load(resource: server.resource(ofPost: 1))
        #expect(server.patchKeys.isEmpty)  // nor with bob's
        #expect(screen.loadingState.content?.title == "Post 1")  // bob sees no change of alice's

        authenticator.signIn(Credential(account: "alice", bearer: "a2"))
        await waitFor(1, Self.confirmed)

        #expect(server.state.withLock { $0.authorizations } == ["Bearer a2"])
        #expect(server.titles[1] == "Alice's")
        #expect(outbox.pendingWrites.isEmpty)
    }

    /// A webservice with an outbox whose authenticator signs `account` in with
    /// `token`, renews to `renewed` by loading post 2 through the webservice itself,
    /// and takes `expired` statuses for an expired credential — only the first one
    /// when `once`, after `whenExpired` has run.
    private func authenticated(
        token: String = "a1",
        renewed: String = "a2",
        expired: Set<Int> = [401],
        once: Bool = false,
        whenExpired: @escaping @Sendable () -> Void = {}
    ) -> Webservice {
        let box = Locked<Webservice?>(nil)
        let post2 = server.resource(ofPost: 2)
        let found = Locked(0)
        let isExpired: @Sendable (HTTPURLResponse) -> Bool = { response in
            guard expired.contains(response.statusCode) else { return false }
            let count = found.withLock { found in
                found += 1
                return found
            }
            guard !once || count == 1 else { return false }
            whenExpired()
            return true
        }
        let authenticator = Authenticator(
            credential: Credential(account: "alice", bearer: token),
            isExpired: isExpired
        ) { expiredCredential in
            _ = try await box.withLock { $0 }!.load(post2)
            return Credential(account: expiredCredential.account, bearer: renewed)
        }
        let webservice = webservice(authenticator: authenticator)
        box.withLock { box in box = webservice }
        return webservice
    }

    /// Loads post 1 on a screen of `webservice`, keeps its rename to "Kept" while the
    /// server is away, and brings the server back: the write waits in the outbox.
    private func keepRenameWhileAway(on webservice: Webservice) async throws {
        let screen = await screen(on: webservice)
        server.stop()
        await sendQueued(try server.rename(1, to: "Kept").keptUntilSent(), from: screen)
        try server.start()
    }

    @Test("a write that waited is sent with the credential when a renewal's own request wakes it")
    func replayWokenByRenewal() async throws {
        // Only the first 404 says the credential expired: the load sent again with the
        // renewed one does not refuse it, whether the write goes before or after.
        let webservice = authenticated(expired: [404], once: true)
        try await keepRenameWhileAway(on: webservice)

        // Post 9 does not exist: its 404 counts as expired here, and the renewal's own
        // request, a 200 from the write's server, sends the write again.
        _ = try? await webservice.load(server.resource(ofPost: 9))
        await waitFor(1, Self.confirmed)

        #expect(
            server.state.withLock { $0.authorizations } == ["Bearer a2"],
            "\(recorder.lines.joined(separator: "\n"))"
        )
    }

    @Test(
        "an answer that says the credential expired wakes no write, which would go with that credential before its renewal began"
    )
    func expiryWakesNoWrite() async throws {
        let patched = DispatchSemaphore(value: 0)
        server.state.withLock { $0.onPatch = { patched.signal() } }
        // The race that sent the write with the expired credential, forced: the expiry
        // found is held until a write it woke arrives — 2 s at most, when none was
        // woken — so that the write goes before the renewal begins.
        let webservice = authenticated(expired: [404], once: true) {
            _ = patched.wait(timeout: .now() + 2)
        }
        try await keepRenameWhileAway(on: webservice)

        _ = try? await webservice.load(server.resource(ofPost: 9))
        await waitFor(1, Self.confirmed)

        #expect(server.state.withLock { $0.authorizations } == ["Bearer a2"])
    }

    @Test(
        "a renewal that ends well sends the writes that wait, also when no request goes to their server again"
    )
    func renewalSendsWaitingWrites() async throws {
        let entered = CounterSignal()
        let release = OneShot<Void>()
        let isExpired: @Sendable (HTTPURLResponse) -> Bool = { $0.statusCode == 404 }
        let authenticator = Authenticator(
            credential: Credential(account: "alice", bearer: "a1"),
            isExpired: isExpired
        ) { expired in
            entered.increment()
            await release.wait()
            return Credential(account: expired.account, bearer: "a2")
        }
        let webservice = webservice(authenticator: authenticator)
        try await keepRenameWhileAway(on: webservice)

        // The load whose 404 says the credential expired is cancelled while it waits for
        // the renewal, which sends no request of its own: nothing answers after it.
        let load = Task { try await webservice.load(server.resource(ofPost: 9)) }
        await entered.wait(for: 1)
        load.cancel()
        _ = try? await load.valuePropagatingCancellation
        release.fire(())
        await waitFor(1, Self.confirmed)

        #expect(server.state.withLock { $0.authorizations } == ["Bearer a2"])
    }

    @Test("a renewal whose request loads a value a mutation under way changes does not wait for it")
    func renewalDuringMutation() async throws {
        let webservice = authenticated(expired: [409])
        let screen = await screen(on: webservice)
        server.state.withLock { $0.refusal = 409 }
        let rename = try server.rename(2, to: "Renamed")

        await #expect(throws: LoadingError.webservice(.authentication(.refused))) {
            _ = try await screen.send(rename)
        }
        // The renewal loaded post 2 while the rename of post 2 held its turn.
        #expect(server.state.withLock { $0.authorizations } == ["Bearer a1", "Bearer a2"])
        #expect(webservice.configuration.authenticator?.credential == nil)  // refused: final
    }

    @Test("a write kept while no one is signed in is refused, its change taken back")
    func keptWhileSignedOut() async throws {
        let webservice = authenticated()
        let screen = await screen(on: webservice)
        webservice.signOut()
        await screen.load(resource: server.resource(ofPost: 1))

        await #expect(throws: LoadingError.webservice(.authentication(.signedOut))) {
            _ = try await screen.send(try server.rename(1, to: "Nobody's").keptUntilSent())
        }
        #expect(webservice.configuration.outbox?.pendingWrites.isEmpty == true)
        #expect(files.isEmpty)
        #expect(screen.loadingState.content?.title != "Nobody's")
    }

    @Test("a write confirmed once the server is back clears the failure a reload met while away")
    func confirmedClearsError() async throws {
        let webservice = webservice()
        let screen = await screen(on: webservice)
        server.stop()
        await sendQueued(try server.rename(1, to: "Offline").keptUntilSent(), from: screen)
        await screen.load(resource: server.resource(ofPost: 1), policy: .force)
        #expect(screen.loadingState.error != nil)
        #expect(screen.loadingState.content?.title == "Offline")

        try server.start()
        await webservice.configuration.outbox?.resume()
        await waitFor(1, Self.confirmed)

        // The server's answer, received after the failure, ends it.
        for await state in screen.states where state.error == nil {
            #expect(state.content?.title == "Offline")
            break
        }
    }

    @Test(
        "writes kept while the server is away go by themselves once it answers, after a growing wait"
    )
    func retriesByItself() async throws {
        let clock = ManualClock()
        let outbox = Outbox(directory: directory, retry: OutboxRetry(jitter: 0))
        let webservice = Webservice(
            transport: URLSessionTransport(),
            configuration: .init(clock: clock, monitor: recorder, outbox: outbox)
        )
        let screen = await screen(on: webservice)
        server.stop()
        for title in ["One", "Two"] {
            await sendQueued(
                try server.rename(1, to: title).scoped("post-1").keptUntilSent(),
                from: screen
            )
        }
        await Self.waitForSleep(of: .seconds(1), on: clock)
        clock.advance(by: .seconds(1))
        // Still away: the next try waits twice as long.
        await Self.waitForSleep(of: .seconds(2), on: clock)
        #expect(outbox.pendingWrites.count == 2)
        #expect(server.patchKeys.isEmpty)

        try server.start()
        clock.advance(by: .seconds(2))
        await waitFor(2, Self.confirmed)
        #expect(server.appliedTitles == ["One", "Two"])
        #expect(outbox.pendingWrites.isEmpty)
        for await state in screen.states where state.content?.title == "Two" && !state.isLoading {
            break
        }
    }

    @Test(
        "an answer from the server while a write is under way asks for another pass: the write goes with no further nudge"
    )
    func answerDuringReplay() async throws {
        let mock = MockTransport()
        let outbox = Outbox(directory: directory, retry: .whenNudged)
        let webservice = Webservice(
            transport: mock,
            configuration: .init(monitor: recorder, outbox: outbox)
        )
        let away = URLError(.cannotConnectToHost)
        let gate = MockTransport.Gate()
        mock.fail("/posts/1", method: .patch, with: away)
        mock.fail("/posts/1", method: .patch, with: away, after: gate)
        mock.respond(to: "/posts/1", method: .patch, with: .json(Post(id: 1, title: "Kept")))
        mock.respond(to: "/posts/2", with: .json(Post(2)))
        _ = try? await webservice.send(try Post.rename(id: 1, to: "Kept").keptUntilSent())
        #expect(outbox.pendingWrites.count == 1)

        let replay = Task { await outbox.resume() }
        await gate.waitForArrivals()
        // The server answers while the write's try, which will fail, is under way.
        _ = try await webservice.load(Post.resource(id: 2))
        gate.open()
        await replay.value

        #expect(outbox.pendingWrites.isEmpty)
        #expect(mock.requestCount(for: "/posts/1", method: .patch) == 3)
    }

    @Test("the outbox's wait grows from its delay by its multiplier to its maximum, with jitter")
    func retryWaits() {
        let steady = OutboxRetry(delay: .seconds(1), maximumDelay: .seconds(60), jitter: 0)
        #expect(
            (0...7).map { steady.wait(afterFailures: $0) }
                == [1, 2, 4, 8, 16, 32, 60, 60].map { Duration.seconds($0) }
        )
        let jittered = OutboxRetry(delay: .seconds(10), jitter: 0.2, random: RandomSource { 0.999 })
        #expect(jittered.wait(afterFailures: 0) > .seconds(11.9))
        #expect(jittered.wait(afterFailures: 0) <= .seconds(12))
        #expect(OutboxRetry(random: RandomSource { 0 }).wait(afterFailures: 10) == .seconds(48))
        // Far past the maximum, the wait is the maximum: no overflow of Duration.
        #expect(steady.wait(afterFailures: 1_000) == .seconds(60))
        #expect(
            OutboxRetry(delay: .seconds(86_400), jitter: 0).wait(afterFailures: 200) == .seconds(60)
        )
        // Settings that would spin or shrink are bounded: a tenth of a second at least.
        let spinning = OutboxRetry(delay: .zero, multiplier: 0.5, maximumDelay: .zero, jitter: 3)
        #expect(
            (0...3).map { spinning.wait(afterFailures: $0) }.allSatisfy { $0 == .milliseconds(100) }
        )
    }

    @Test("three edits while away reach the server in the order they were made, on resume()")
    func orderedOnResume() async throws {
        let webservice = webservice()
        let screen = await screen(on: webservice)
        server.stop()

        for title in ["One", "Two", "Three"] {
            await sendQueued(
                try server.rename(1, to: title).scoped("post-1").keptUntilSent(),
                from: screen
            )
        }
        #expect(screen.loadingState.content?.title == "Three")
        // Once the server is known to be away, the later writes are not even tried.
        #expect(server.patchKeys.isEmpty)

        try server.start()
        await webservice.configuration.outbox?.resume()

        #expect(server.appliedTitles == ["One", "Two", "Three"])
        #expect(server.titles[1] == "Three")
        #expect(webservice.configuration.outbox?.pendingWrites.isEmpty == true)
        for await state in screen.states where state.content?.title == "Three" && !state.isLoading {
            break
        }
    }

    @Test(
        "a write the server rejects with 4xx leaves the outbox, its change taken back, reported with the status"
    )
    func rejected() async throws {
        let webservice = webservice()
        let screen = await screen(on: webservice)
        server.stop()
        await sendQueued(try server.rename(1, to: "Conflicting").keptUntilSent(), from: screen)
        #expect(screen.loadingState.content?.title == "Conflicting")

        try server.start()
        server.state.withLock { $0.refusal = 409 }
        await webservice.configuration.outbox?.resume()

        #expect(webservice.configuration.outbox?.pendingWrites.isEmpty == true)
        #expect(files.isEmpty)
        #expect(recorder.events.contains { $0.kind == .writeRejected(sequence: 1, status: 409) })
        for await state in screen.states where state.content?.title == "Post 1" { break }
        #expect(server.titles[1] == "Post 1")
    }

    @Test(
        "a server error keeps the write waiting, and the next resume sends it again with the same key"
    )
    func serverErrorKeeps() async throws {
        let webservice = webservice()
        let screen = await screen(on: webservice)
        server.state.withLock { $0.refusal = 503 }

        let write = await sendQueued(
            try server.rename(1, to: "Later").keptUntilSent(),
            from: screen
        )
        #expect(screen.loadingState.content?.title == "Later")

        server.state.withLock { $0.refusal = nil }
        await webservice.configuration.outbox?.resume()

        #expect(server.patchKeys == [write?.idempotencyKey, write?.idempotencyKey])
        #expect(server.appliedTitles == ["Later"])
        #expect(files.isEmpty)
    }

    @Test(
        "after a relaunch, kept writes show their changes over the stored values and resume in order"
    )
    func relaunch() async throws {
        // The kind's function builds the same mutation again.
        let rebuild: @Sendable (Post) throws -> Mutation<Post> = { [server] post in
            try server.rename(post.id, to: post.title)
        }
        let persisted = DiskResourceStore(directory: directory.appending(path: "values"))
        do {
            let first = webservice(persistentStore: persisted)
            let screen = await screen(on: first)
            await first.persistPendingValues()
            server.stop()
            for title in ["First", "Second"] {
                let post = Post(id: 1, title: title)
                await sendQueued(
                    try server.rename(1, to: title).scoped("post-1").keptUntilSent(
                        as: "rename",
                        input: post
                    ),
                    from: screen
                )
            }
        }

        let outbox = Outbox(directory: directory, retry: .whenNudged)
        outbox.register("rename", rebuild: rebuild)
        let relaunched = webservice(outbox: outbox, persistentStore: persisted)
        let screen = DetailScreen(webservice: relaunched)
        await screen.load(resource: server.resource(ofPost: 1))

        // The server is still away: the stored post shows with both edits over it.
        #expect(screen.loadingState.content?.title == "Second")
        #expect(outbox.pendingWrites.map(\.sequence) == [1, 2])

        try server.start()
        await outbox.resume()

        #expect(server.appliedTitles == ["First", "Second"])
        #expect(outbox.pendingWrites.isEmpty)
        #expect(files == ["values"])
    }

    @Test("a webservice that starts with kept writes sends them at once")
    func sentAtStart() async throws {
        do {
            let first = webservice()
            let screen = await screen(on: first)
            server.stop()
            await sendQueued(try server.rename(1, to: "Restored").keptUntilSent(), from: screen)
        }
        try server.start()

        let relaunched = webservice()
        await waitFor(1, Self.confirmed)

        #expect(server.appliedTitles == ["Restored"])
        #expect(relaunched.configuration.outbox?.pendingWrites.isEmpty == true)
    }

    @Test("a damaged outbox file is removed and reported, with the temporary files a kill left")
    func damagedFile() async throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data("not a write".utf8).write(to: directory.appending(path: "0000000000000001.lkob"))
        try Data("half".utf8).write(to: directory.appending(path: ".0000000000000002.lkob.tmp"))

        let outbox = Outbox(directory: directory, retry: .whenNudged, log: { _ in })
        _ = webservice(outbox: outbox)

        #expect(outbox.pendingWrites.isEmpty)
        #expect(files.isEmpty)
        #expect(recorder.events.map(\.kind) == [.outboxFileRefused(name: "0000000000000001.lkob")])
    }

    @Test("a write file cut short, or with one byte changed, is refused after a relaunch")
    func cutAndChangedFiles() async throws {
        do {
            let first = webservice()
            let screen = await screen(on: first)
            server.stop()
            for title in ["Cut", "Changed", "Whole"] {
                await sendQueued(try server.rename(1, to: title).keptUntilSent(), from: screen)
            }
        }
        let cut = directory.appending(path: "0000000000000001.lkob")
        let changed = directory.appending(path: "0000000000000002.lkob")
        try Data(try Data(contentsOf: cut).dropLast(3)).write(to: cut)
        var bytes = try Data(contentsOf: changed)
        bytes[bytes.count / 2] ^= 0x20
        try bytes.write(to: changed)
        recorder.removeAll()

        let outbox = Outbox(directory: directory, retry: .whenNudged, log: { _ in })
        _ = webservice(outbox: outbox)

        #expect(outbox.pendingWrites.map(\.sequence) == [3])
        #expect(files == ["0000000000000003.lkob"])
        #expect(
            recorder.events.map(\.kind).filter {
                if case .outboxFileRefused = $0 { true } else { false }
            }
                == [
                    .outboxFileRefused(name: "0000000000000001.lkob"),
                    .outboxFileRefused(name: "0000000000000002.lkob"),
                ]
        )
    }

    @Test("a full outbox refuses the write with a clear error, and its change is taken back")
    func full() async throws {
        let webservice = webservice(
            outbox: Outbox(directory: directory, maximumWrites: 1, retry: .whenNudged)
        )
        let screen = await screen(on: webservice)
        server.stop()
        await sendQueued(try server.rename(1, to: "Fits").keptUntilSent(), from: screen)

        await #expect {
            try await screen.send(server.rename(1, to: "Too many").keptUntilSent())
        } throws: { error in
            guard case .webservice(.outboxRefused(.full(1, _))) = error as? LoadingError else {
                return false
            }
            return (error as? LoadingError)?.description.contains("outbox is full") == true
        }
        #expect(screen.loadingState.content?.title == "Fits")
        #expect(webservice.configuration.outbox?.pendingWrites.count == 1)
    }

    @Test("a kept mutation through a webservice without an outbox is refused, never sent")
    func noOutbox() async throws {
        let webservice = Webservice(transport: URLSessionTransport())
        let screen = await screen(on: webservice)

        await #expect(throws: LoadingError.webservice(.outboxRefused(.noOutbox))) {
            try await screen.send(server.rename(1, to: "Nowhere").keptUntilSent())
        }
        #expect(server.patchKeys.isEmpty)
        #expect(screen.loadingState.content?.title == "Post 1")
    }

    @Test(
        "credentials are never written to the outbox, and are sent with every attempt",
        arguments: ["Authorization", "X-API-Key"]
    )
    func credentialsStayOffDisk(_ field: String) async throws {
        let webservice = webservice()
        let screen = await screen(on: webservice)
        server.stop()
        var mutation = try server.rename(1, to: "Signed").keptUntilSent()
        mutation = Mutation(mutation.resource.header(field, "Bearer secret-token"))
            .keptUntilSent()
        await sendQueued(mutation, from: screen)

        let contents = try files.map { try Data(contentsOf: directory.appending(path: $0)) }
        #expect(contents.count == 1)
        #expect(
            contents.allSatisfy {
                String(decoding: $0, as: UTF8.self).contains("secret-token") == false
            }
        )

        try server.start()
        await webservice.configuration.outbox?.resume()
        let sent = server.state.withLock {
            field == "Authorization" ? $0.authorizations : $0.apiKeys
        }
        #expect(sent == ["Bearer secret-token"])
    }

    @Test("a header field the webservice names a credential is never written to the outbox")
    func namedCredentialsStayOffDisk() async throws {
        let webservice = Webservice(
            transport: URLSessionTransport(),
            configuration: .init(
                credentialNames: ["X-Tenant"],
                monitor: recorder,
                outbox: Outbox(directory: directory, retry: .whenNudged)
            )
        )
        let screen = await screen(on: webservice)
        server.stop()
        let mutation = try server.rename(1, to: "Named").keptUntilSent()
        await sendQueued(
            Mutation(mutation.resource.header("X-Tenant", "tenant-secret")).keptUntilSent(),
            from: screen
        )

        let contents = try files.map { try Data(contentsOf: directory.appending(path: $0)) }
        #expect(contents.count == 1)
        #expect(
            !contents.contains { String(decoding: $0, as: UTF8.self).contains("tenant-secret") }
        )
        try server.start()
    }

    @Test("a screen's task says a write is queued, not failed")
    func taskSaysQueued() async throws {
        let screen = await screen(on: webservice())
        server.stop()

        let task: MutationTask<Post> = screen.startSending(
            try server.rename(1, to: "Later").keptUntilSent()
        )
        await task.finish()

        #expect(task.queuedWrite?.sequence == 1)
        guard case .queued(let write) = task.outcome else {
            Issue.record("expected queued, got \(String(describing: task.outcome))")
            return
        }
        #expect(write == task.queuedWrite)
        #expect(task.error == nil)
        #expect(!task.isInFlight)
    }
}
