import Foundation
import LoadingKit

/// Hears the `Link` targets the kit refused to follow — another origin's — and the
/// `Link` values it could not read, so that `--url` can say why a list ended, and
/// passes every event on to `forward`, the `--verbose` printer, when there is one.
///
/// ```swift
/// let refusals = LinkRefusals(forwardingTo: printer)
/// let webservice = Webservice(transport: transport, configuration: .init(monitor: refusals))
/// ```
final class LinkRefusals: LoadingMonitor {
    private let forward: (any LoadingMonitor)?
    private let firstRefused = Locked<URL?>(nil)
    private let malformed = Locked(0)

    /// Hears events, and hands each to `forward`.
    ///
    /// - Parameter forward: Who else hears every event; `nil` for no one.
    init(forwardingTo forward: (any LoadingMonitor)?) {
        self.forward = forward
    }

    /// The origin of the first target refused, `host:port` — never a path or a query;
    /// `nil` when none was.
    var firstRefusedOrigin: String? {
        firstRefused.withLock { $0 }.map { url in
            (url.host() ?? "?") + (url.port.map { ":\($0)" } ?? "")
        }
    }

    /// How many `Link` values the last page answered held that could not be read;
    /// `0` when none.
    var malformedValues: Int {
        malformed.withLock { $0 }
    }

    func record(_ event: LoadingEvent) {
        switch event.kind {
        case .linkRefused(let target):
            firstRefused.withLock { $0 = $0 ?? target }
        case .finished:
            // A new page: what the one before held no longer ends the list.
            malformed.withLock { $0 = 0 }
        case .linkMalformed(let count):
            malformed.withLock { $0 = count }
        default:
            break
        }
        forward?.record(event)
    }
}
