import Dispatch
import LoadingKitNetworking
import Testing

/// `Locked` keeps its value and its mutex in one buffer: the value is destroyed exactly
/// once, with the last copy, and threads never lose an update.
@Suite("Locked", .timeLimit(.minutes(1)))
struct LockedTests {
    /// Counts its own deinitialisations.
    final class Tracked: Sendable {
        let deinits: Locked<Int>

        init(deinits: Locked<Int>) {
            self.deinits = deinits
        }

        deinit {
            deinits.withLock { $0 += 1 }
        }
    }

    @Test("the value is destroyed once, when the last copy goes")
    func valueIsDestroyedOnce() {
        let deinits = Locked(0)
        do {
            let locked = Locked(Tracked(deinits: deinits))
            let copy = locked
            withExtendedLifetime((locked, copy)) {
                #expect(deinits.withLock { $0 } == 0)
            }
        }
        #expect(deinits.withLock { $0 } == 1)
    }

    @Test("a replaced value is destroyed as it is replaced")
    func replacedValueIsDestroyed() {
        let deinits = Locked(0)
        let locked = Locked(Tracked(deinits: deinits))
        locked.withLock { $0 = Tracked(deinits: deinits) }
        #expect(deinits.withLock { $0 } == 1)
    }

    @Test("copies share the value and no concurrent update is lost")
    func concurrentUpdatesAreKept() {
        let counter = Locked(0)
        let copy = counter
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<10_000 {
                copy.withLock { $0 += 1 }
            }
        }
        #expect(counter.withLock { $0 } == 80_000)
    }

    @Test("a throwing body leaves the lock free")
    func throwingBodyUnlocks() {
        struct Refused: Error {}
        let locked = Locked(1)
        #expect(throws: Refused.self) {
            try locked.withLock { _ in throw Refused() }
        }
        #expect(locked.withLock { $0 } == 1)
    }
}
