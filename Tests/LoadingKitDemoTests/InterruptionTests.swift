import Foundation
import LoadingKitNetworking
import Testing

@testable import loadingkit_demo

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Ctrl-C in a terminal", .timeLimit(.minutes(1)))
struct InterruptionTests {
    @Test("a caught signal shows the cursor again, then exits with 128 plus its number")
    func interrupted() async {
        let written = Locked("")
        let exited = AsyncStream.makeStream(of: Int32.self)
        let interruption = Interruption(
            restoring: nil,
            signals: [SIGUSR2],
            write: { text in written.withLock { $0 += text } },
            exit: { exited.continuation.yield($0) }
        )
        defer { interruption.cancel() }
        kill(getpid(), SIGUSR2)
        var statuses = exited.stream.makeAsyncIterator()
        let status = await statuses.next()
        #expect(status == 128 + SIGUSR2)
        #expect(written.withLock { $0 } == "\u{1B}[?25h\n")
    }
}
