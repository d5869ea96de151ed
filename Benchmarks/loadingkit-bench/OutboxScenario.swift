import Foundation
import LoadingKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What keeping a write costs: a mutation kept until sent, queued while its server is
/// away — written whole and synchronized to disk — against writing its bytes to a file
/// by hand, synchronized and renamed into place, the least a durable write costs.
@MainActor
struct OutboxScenario {
    let quick: Bool

    func run() async throws -> [Row] {
        [try await enqueue()]
    }

    private func enqueue() async throws -> Row {
        let directory = FileManager.default.temporaryDirectory
            .appending(path: "loadingkit-bench-outbox-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let outbox = Outbox(
            directory: directory.appending(path: "outbox"),
            maximumWrites: .max,
            maximumSize: .max
        )
        let webservice = Webservice(
            transport: UnreachableTransport(),
            configuration: .init(outbox: outbox)
        )
        let body = try JSONEncoder().encode(
            BenchItem(id: 1, title: String(repeating: "x", count: 200))
        )
        var request = URLRequest(url: URL(string: "https://bench.invalid/items/1")!)
        request.httpMethod = "PUT"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = body
        let write = Mutation(Resource<Data>(request: request) { data, _ in data }).keptUntilSent()
        // The first write finds the server away; the next ones are queued at once.
        _ = try? await webservice.send(write)
        let writes = quick ? 20 : 200
        let byHand = directory.appending(path: "by-hand")
        try FileManager.default.createDirectory(at: byHand, withIntermediateDirectories: true)
        var written = 0
        var interleaved = Interleaved(rounds: quick ? 3 : 21)
        let comparison = await interleaved.compare {
            await Measure.time(operations: writes) {
                for _ in 0..<writes {
                    _ = try? await webservice.send(write)
                }
            }
        } baseline: {
            await Measure.time(operations: writes) {
                for _ in 0..<writes {
                    written += 1
                    Self.writeDurably(body, to: byHand.appending(path: "\(written)").path)
                }
            }
        }
        return Row(
            judgedOnWall: "outbox-enqueue (wall)",
            comparison,
            budget: 1.25,
            note:
                "a kept write queued, synchronized to disk, vs its body written with fsync by hand"
        )
    }

    /// Writes `data` to a temporary file, synchronizes it and renames it to `path`.
    private static func writeDurably(_ data: Data, to path: String) {
        let temporary = path + ".tmp"
        let descriptor = open(temporary, O_CREAT | O_WRONLY | O_TRUNC, 0o600)
        _ = data.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        fsync(descriptor)
        close(descriptor)
        rename(temporary, path)
    }
}

/// A transport whose server is never there.
struct UnreachableTransport: Transport {
    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        throw URLError(.cannotConnectToHost)
    }
}
