import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Ends the demo on Ctrl-C (`SIGINT`) or `SIGTERM` as a finished session ends: the
/// terminal put back as it was, the cursor shown again; then the process exits with
/// 128 plus the signal's number, as a shell expects of a process it interrupted.
///
/// ```swift
/// let interruption = Interruption(restoring: keyboard)
/// defer { interruption.cancel() }
/// ```
///
/// The signal handler only writes the signal's number to a pipe, which is all a
/// handler may safely do; the cleanup runs on a queue that reads the pipe. (A
/// dispatch signal source would not do: on Linux it hears a signal only when every
/// thread blocks it, and the process's threads are not all the demo's.)
final class Interruption {
    private let signals: [Int32]
    private let pipe: (read: Int32, write: Int32)
    private let source: any DispatchSourceRead

    /// Catches `signals` until ``cancel()``.
    ///
    /// - Parameters:
    ///   - keyboard: The terminal in raw mode to put back, if any.
    ///   - signals: The signals that end the demo; `SIGINT` and `SIGTERM` by default.
    ///   - write: Writes to the terminal, from any thread; standard output by default.
    ///   - exit: Ends the process with a status; `exit(_:)` by default.
    init(
        restoring keyboard: RawTerminal?,
        signals: [Int32] = [SIGINT, SIGTERM],
        write: @escaping @Sendable (String) -> Void = { text in
            FileHandle.standardOutput.write(Data(text.utf8))
        },
        exit: @escaping @Sendable (Int32) -> Void = { Foundation.exit($0) }
    ) {
        var ends: [Int32] = [-1, -1]
        let opened = Glibc.pipe(&ends) == 0
        precondition(opened, "no pipe for the signal handler: the process is out of descriptors")
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, O_NONBLOCK)
        }
        pipe = (ends[0], ends[1])
        self.signals = signals
        source = DispatchSource.makeReadSource(fileDescriptor: pipe.read, queue: .global())
        source.setEventHandler { [pipe] in
            var number: UInt8 = 0
            guard read(pipe.read, &number, 1) == 1 else { return }
            keyboard?.restore()
            write("\u{1B}[?25h\n")
            exit(128 + Int32(number))
        }
        source.setCancelHandler { [pipe] in
            close(pipe.read)
            close(pipe.write)
        }
        source.resume()
        interruptionPipe.store(pipe.write, ordering: .releasing)
        for number in signals {
            signal(number) { received in
                var number = UInt8(truncatingIfNeeded: received)
                _ = Glibc.write(interruptionPipe.load(ordering: .acquiring), &number, 1)
            }
        }
    }

    /// Stops catching the signals: their default action is back.
    func cancel() {
        for number in signals {
            signal(number, SIG_DFL)
        }
        interruptionPipe.store(-1, ordering: .releasing)
        source.cancel()  // which closes the pipe
    }
}

/// Where the signal handler writes: set before the handler is installed, and read
/// only by it. A handler cannot capture anything, so this is a global; atomic, since
/// the handler runs on whatever thread the signal reaches.
private let interruptionPipe = Atomic<Int32>(-1)
