import Dispatch
import Foundation
import LoadingKitNetworking
import LoadingKitTesting
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
            _ = await arrived.signalled()
        }

        func release() { held.signal() }
    }

    @Test(
        "five answers of one resource while the disk is busy: the last is written, the others never"
    )
    func burst() async throws {
        let store = HeldStore()
        let mock = MockTransport()
        let webservice = Webservice(transport: mock, configuration: .init(persistentStore: store))
        let numbers = Resource<[Int]>(url: URL(string: "https://api.example.com/numbers")!)
        mock.respond(to: "/other", with: .json([0]))
        _ = try await webservice.load(
            Resource<[Int]>(url: URL(string: "https://api.example.com/other")!)
        )
        await store.firstWriteArrived()  // the disk is busy with it
        for value in 1...5 {
            mock.respond(to: "/numbers", with: .json([value]))
            _ = try await webservice.load(numbers)
        }
        store.release()
        await webservice.persistPendingValues()

        let written = store.writes.withLock { $0 }.map {
            try? JSONDecoder().decode([Int].self, from: $0)
        }
        #expect(written == [[0], [5]])
    }
}
