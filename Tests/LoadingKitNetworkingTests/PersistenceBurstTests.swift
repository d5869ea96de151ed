import Dispatch
import Foundation
import LoadingKitNetworking
import Testing

/// Values stored faster than the disk takes them are written last one first: a key
/// whose write is replaced before it runs is never encoded, and the last value is the
/// one kept.
@Suite("Writes to the persistent store", .timeLimit(.minutes(1)))
struct PersistenceBurstTests {
    /// A store whose first write waits until `release()`, recording every write.
    final class HeldStore: ResourceStore {
        let writes = Locked<[Data]>([])
        private let held = DispatchSemaphore(value: 0)
        private let arrived = DispatchSemaphore(value: 0)

        func record(forKey key: String) -> PersistedRecord? { nil }
        func store(_ record: PersistedRecord, forKey key: String) {
            let first = writes.withLock { writes in
                writes.append(record.body)
                return writes.count == 1
            }
            if first {
                arrived.signal()
                held.wait()
            }
        }
        func removeRecord(forKey key: String) {}
        func removeAll() {}

        /// Waits, off the caller's executor, until the first write is held.
        func firstWriteArrived() async {
            await withCheckedContinuation { continuation in
                DispatchQueue.global().async {
                    self.arrived.wait()
                    continuation.resume()
                }
            }
        }

        func release() { held.signal() }
    }

    @Test("five values of one key while the disk is busy: the last is written, the others never")
    func burst() async throws {
        let store = HeldStore()
        let webservice = Webservice(configuration: .init(persistentStore: store))
        let resource = Resource<[Int]>(url: URL(string: "https://api.example.com/numbers")!)
        let other = Resource<[Int]>(url: URL(string: "https://api.example.com/other")!)
        webservice.persist([0], of: other, identity: other.identity)  // keeps the disk busy
        await store.firstWriteArrived()
        for value in 1...5 {
            webservice.persist([value], of: resource, identity: resource.identity)
        }
        store.release()
        await webservice.persistPendingValues()

        let written = store.writes.withLock { $0 }.map {
            try? JSONDecoder().decode([Int].self, from: $0)
        }
        #expect(written == [[0], [5]])
    }
}
