import Foundation
import LoadingKit
import LoadingKitTesting
import Testing

/// Seeded random sequences of following and leaving a live resource — follows, stops,
/// cancelled readers, followers released unread, events, dropped connections, `204`,
/// `401`, `503`, silent connections and reconnection waits on a manual clock — each
/// checking the connection's rules:
///
/// - at most one connection per live identity, and none once nobody follows (once its
///   close completes);
/// - no event sent after a follower left reaches it;
/// - no follower is left waiting: every reader ends once its follower stopped.
///
/// `LOADINGKIT_MODEL_SEQUENCES` and `LOADINGKIT_MODEL_SEED` work as for the other models.
@MainActor
@Suite("Randomized live following", .timeLimit(.minutes(30)))
struct LiveModelTests {
    /// A follower: its reader's task and what it received.
    private final class Follower {
        let following: LiveFollowing<ServerSentEvent>
        let received = Locked<[Int]>([])
        var reader: Task<Void, Never>?
        /// The number of the last event sent when it left.
        var leftAfter: Int?

        init(_ following: LiveFollowing<ServerSentEvent>) {
            self.following = following
            let received = received
            reader = Task.detached {
                for await update in following {
                    if let number = update.rawEvent.flatMap({ Int($0.data) }) {
                        received.withLock { $0.append(number) }
                    }
                }
            }
        }
    }

    @Test("seeded sequences keep one connection per identity and deliver nothing after leaving")
    func seededSequences() async {
        await SeededSequences.expectNoViolations("live") { seed in
            await Self.run(seed: seed)
        }
    }

    private static func run(seed: UInt64) async -> [String] {
        let random = RandomSource.seeded(seed &* 0x5851_F42D &+ 3)
        /// A number from 0 to `count` - 1.
        func pick(_ count: Int) -> Int { min(count - 1, Int(random.next() * Double(count))) }
        let server = LiveModelServer()
        let clock = ManualClock()
        let authenticator = Authenticator(credential: Credential(account: "a", bearer: "1")) {
            Credential(account: $0.account, bearer: "2")
        }
        let webservice = Webservice(
            transport: server,
            configuration: .init(clock: clock, authenticator: authenticator)
        )
        let live = LiveResource<ServerSentEvent>(url: URL(string: "https://api.example.com/live")!)
            .reconnecting(
                LiveReconnection(
                    delay: .seconds(1),
                    idleTimeout: .seconds(3),
                    random: .seeded(seed)
                )
            )
        var followers: [Follower] = []
        var gone: [Follower] = []
        var violations: [String] = []
        var steps: [String] = []

        func leave(_ index: Int, cancelling: Bool) async {
            let follower = followers.remove(at: index)
            follower.leftAfter = server.lastSent
            if cancelling {
                follower.reader?.cancel()
            } else {
                follower.following.stop()
            }
            await follower.reader?.value
            gone.append(follower)
        }

        for _ in 0..<4 + pick(13) {
            let step = pick(10)
            steps.append("\(step)")
            switch step {
            case 0, 1:
                followers.append(Follower(webservice.follow(live)))
            case 2 where !followers.isEmpty:
                await leave(pick(followers.count), cancelling: false)
            case 3 where !followers.isEmpty:
                await leave(pick(followers.count), cancelling: true)
            case 4:
                // A follower released without ever being read.
                _ = webservice.follow(live)
            case 5:
                server.push()
            case 6:
                server.drop()
            case 7:
                server.answerNext([.noContent, .unauthorized, .unavailable][pick(3)])
            default:
                clock.advance(by: .milliseconds(pick(4001)))
            }
            if server.mostOpen > 1, !steps.last!.hasSuffix("!") {
                steps[steps.count - 1] += "!"
            }
            if webservice.liveConnectionCount > 1 {
                violations.append("\(webservice.liveConnectionCount) connections of one identity")
            }
            if followers.isEmpty {
                if webservice.liveConnectionCount != 0 {
                    violations.append("a connection open while nobody follows after \(steps)")
                }
                // The close completes: every body the server opened is closed.
                while true {
                    let closes = server.closed.value
                    guard server.openCount > 0 else { break }
                    await server.closed.wait(for: closes + 1)
                }
            }
        }
        for index in followers.indices.reversed() {
            await leave(index, cancelling: pick(2) == 0)
        }
        if webservice.liveConnectionCount != 0 {
            violations.append("a connection open at the end")
        }
        if server.mostOpen > 1 {
            violations.append("\(server.mostOpen) connections open at once after \(steps)")
        }
        for follower in gone {
            let late = follower.received.withLock { $0 }.filter { $0 > follower.leftAfter! }
            if !late.isEmpty {
                violations.append("events \(late) reached a follower after it left")
            }
        }
        return violations
    }
}
