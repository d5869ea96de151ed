import Foundation
import LoadingKitNetworking

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The writing process: sends writes `--from` up to `--to`, one after another, each
/// kept until sent, through a webservice with the outbox in `--directory`; prints
/// `accepted ID` once the outbox took write ID, and `drained` once nothing waits
/// (when asked to, with `--drain`). Started, and killed, by ``DrillParent``.
struct DrillChild {
    let port: String
    let directory: URL
    let range: Range<Int>
    let drains: Bool

    init(arguments: [String]) {
        func value(_ name: String) -> String {
            arguments.firstIndex(of: name).map { arguments[$0 + 1] } ?? ""
        }
        port = value("--port")
        directory = URL(filePath: value("--directory"), directoryHint: .isDirectory)
        range = (Int(value("--from")) ?? 0)..<(Int(value("--to")) ?? 0)
        drains = arguments.contains("--drain")
    }

    func run() async {
        let outbox = Outbox(directory: directory)
        let webservice = Webservice(
            transport: URLSessionTransport(),
            configuration: .init(monitor: AcceptedWrites(), outbox: outbox)
        )
        for id in range {
            say("sending \(id)")
            var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/writes/\(id)")!)
            request.httpMethod = "PUT"
            request.httpBody = Data("{\"id\":\(id)}".utf8)
            let write = Mutation(Resource<Data>(request: request) { data, _ in data })
                .keptUntilSent()
            _ = try? await webservice.send(write)
        }
        guard drains else { return }
        while !outbox.pendingWrites.isEmpty {
            await outbox.resume()
        }
        say("drained")
    }
}

/// Prints `accepted ID` as the outbox takes each write: the write's ID is the last
/// component of its URL.
private struct AcceptedWrites: LoadingMonitor {
    func record(_ event: LoadingEvent) {
        guard case .writeKept = event.kind, let id = event.url?.lastPathComponent else { return }
        say("accepted \(id)")
    }
}

/// Writes `line` to standard output at once: a process killed with SIGKILL loses what
/// a buffer holds.
private func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
