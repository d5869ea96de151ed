import Foundation
import LoadingKitTesting

/// The 1 KB list served by a `LoopbackServer` in a child process of this executable, on
/// CPU 0 where ``Pinning`` is available, so that the server's CPU time is not counted
/// as the client's.
///
/// ```swift
/// let server = try ServerProcess()
/// defer { server.stop() }
/// let samples = try await rounds.measure(at: server.url, inFlight: 1)
/// ```
final class ServerProcess {
    /// The option a child is started with to serve.
    static let option = "--serve"

    /// The list's URL.
    let url: URL
    private let process = Process()
    private let input = Pipe()

    /// The child that did not say where it serves.
    struct NotStarted: Error, CustomStringConvertible {
        var description: String { "the server process did not start" }
    }

    /// Starts the child and waits until it listens.
    ///
    /// - Throws: When the child cannot be started or does not say its URL.
    init() throws {
        let output = Pipe()
        (process.executableURL, process.arguments) = Pinning.command(
            running: URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath(),
            [Self.option],
            on: 0
        )
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        var line = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1)?.first, byte != 10 {
            line.append(byte)
        }
        guard let url = URL(string: String(decoding: line, as: UTF8.self)) else {
            process.terminate()
            process.waitUntilExit()
            throw NotStarted()
        }
        self.url = url
    }

    /// Ends the child and waits for it.
    func stop() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    /// Serves the list until standard input closes, having printed its URL: what the
    /// child runs.
    static func serve() throws -> Never {
        let server = try LoopbackServer(keepsRequests: false)
        let body = try JSONEncoder().encode(BenchItem.list(count: 20))
        server.route("/small") { _ in
            .init(headers: [("Content-Type", "application/json")], body: body)
        }
        FileHandle.standardOutput.write(Data((server.url("/small").absoluteString + "\n").utf8))
        _ = FileHandle.standardInput.readDataToEndOfFile()
        server.stop()
        exit(0)
    }
}
