import Dispatch
import Foundation
import LoadingKitNetworking

/// A real HTTP/1.1 server on `127.0.0.1` at an ephemeral port, for tests, the demo
/// and benchmarks.
///
/// Routes are closures from a ``Request`` to a ``MockResponse``; an unknown route gets
/// 404. Connections are kept alive and served concurrently, each on its own thread.
/// The server stops on ``stop()`` or when it is released, closing every socket and
/// waiting for its threads. It can go away and come back on its port, its routes and
/// the requests it received kept, for a test of a server that cannot be reached.
///
/// ```swift
/// let server = try LoopbackServer()
/// server.route("/episodes/1") { _ in .json(Episode(id: 1, title: "Pilot")) }
/// let webservice = Webservice(transport: URLSessionTransport())
/// let episode = try await webservice.load(Resource<Episode>(url: server.url("/episodes/1")))
/// ```
public final class LoopbackServer: Sendable {
    /// Answers a request; runs on the connection's thread.
    public typealias Handler = @Sendable (Request) -> MockResponse

    /// The core running on the port, and whether ``stop()`` ended the server for good.
    private let current: Locked<(core: Core, hasStopped: Bool)>
    private let record: Record
    /// A socket bound to the port, not listening, until ``stop()``: while the server
    /// is away, no other server that asks for an ephemeral port is given this one.
    /// Linux only: elsewhere `SO_REUSEADDR` lets no second socket bind beside it.
    private let reservation: Socket?

    /// Starts a server; requests that match no route go to `fallback`.
    ///
    /// - Parameters:
    ///   - port: The port to listen on; 0, the default, picks a free one. Give the
    ///     port of a stopped server to bring it back.
    ///   - keepsRequests: Whether ``requests`` keeps every request received; `true` by
    ///     default. A long drill or benchmark passes `false`, so that the server's
    ///     memory does not grow with the requests it answers; they are still counted.
    ///   - fallback: Answers requests no route matches; 404 by default.
    /// - Throws: When the socket cannot be opened.
    public init(
        port: UInt16 = 0,
        keepsRequests: Bool = true,
        fallback: @escaping Handler = { _ in .text("Not found", status: 404) }
    ) throws {
        record = Record(fallback: fallback, keepsRequests: keepsRequests)
        #if os(Linux)
            // Bound first: a socket cannot be bound beside one that listens.
            let reservation: Socket? = try Socket.bound(port: port)
        #else
            let reservation: Socket? = nil
        #endif
        self.reservation = reservation
        let core: Core
        do {
            core = try Core(port: reservation?.port ?? port, record: record)
        } catch {
            reservation?.close()
            throw error
        }
        current = Locked((core, false))
        core.start()
    }

    deinit {
        stop()
    }

    /// The port the server listens on.
    public var port: UInt16 { current.withLock { $0.core.port } }

    /// `http://127.0.0.1:PORT`.
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// The absolute URL of `pathAndQuery`, such as `"/posts?_page=2"`.
    ///
    /// - Parameter pathAndQuery: The path, starting with `/`, and any query.
    /// - Returns: The URL on ``baseURL``.
    public func url(_ pathAndQuery: String) -> URL {
        URL(string: baseURL.absoluteString + pathAndQuery)!
    }

    /// Answers requests to `path` (without query) with `handler`, replacing an earlier
    /// route for the same method and path.
    ///
    /// - Parameters:
    ///   - path: The path to match, such as `"/posts"`.
    ///   - method: The method to match; `GET` by default.
    ///   - handler: Makes the response.
    public func route(
        _ path: String,
        method: HTTPMethod = .get,
        handler: @escaping Handler
    ) {
        record.routes.withLock { $0["\(method) \(path)"] = handler }
    }

    /// Answers the requests to `path` with `responses` in turn, the last one for every
    /// request after it — a failure and then a recovery, say.
    ///
    /// ```swift
    /// server.route("/feed", answering: [.status(503), .json(feed)])
    /// ```
    ///
    /// - Parameters:
    ///   - path: The path to match.
    ///   - method: The method to match; `GET` by default.
    ///   - responses: The responses in order; at least one.
    public func route(
        _ path: String,
        method: HTTPMethod = .get,
        answering responses: [MockResponse]
    ) {
        precondition(!responses.isEmpty, "route(_:answering:) needs a response")
        let served = Locked(0)
        route(path, method: method) { _ in
            let index = served.withLock { count in
                defer { count += 1 }
                return min(count, responses.count - 1)
            }
            return responses[index]
        }
    }

    /// Every request received so far, in order of arrival.
    public var requests: [Request] { record.requests.withLock { $0 } }

    /// How many requests for `path` (without query) were received.
    ///
    /// - Parameter path: The path, such as `"/posts"`.
    /// - Returns: The number of requests so far, of any method.
    public func requestCount(for path: String) -> Int {
        requests.count { $0.path == path }
    }

    /// Returns once `count` requests in all have been received — or once the calling
    /// task is cancelled, as by a test's time limit.
    ///
    /// - Parameter count: How many requests, counted from the server's start.
    public func waitForRequests(_ count: Int) async {
        await record.received.wait(for: count)
    }

    /// How many connections have been accepted so far.
    public var connectionCount: Int { record.accepted.withLock { $0 } }

    /// Stops the server: closes every socket, cuts delays short and waits for every
    /// thread to finish. Calling it again does nothing.
    public func stop() {
        let (core, wasStopped) = current.withLock { current in
            defer { current.hasStopped = true }
            return (current.core, current.hasStopped)
        }
        core.stop()
        if !wasStopped {
            reservation?.close()
        }
    }

    /// Closes the port and every connection, as a server that went away: requests fail
    /// to connect until ``comeBack()``, and on Linux the port is kept for it: no other
    /// server that asks for a free port is given it meanwhile. Routes and the requests
    /// received are kept.
    ///
    /// ```swift
    /// server.goAway()  // loads fail: could not connect to the server
    /// try server.comeBack()  // the same routes answer again
    /// ```
    public func goAway() {
        current.withLock { $0.core }.stop()
    }

    /// Opens the port again after ``goAway()``, with the same routes; does nothing
    /// after ``stop()`` or while the server is up.
    ///
    /// - Throws: When the port cannot be opened again.
    public func comeBack() throws {
        let core = try current.withLock { current -> Core? in
            guard current.core.isStopped, !current.hasStopped else { return nil }
            current.core = try Core(port: current.core.port, record: record)
            return current.core
        }
        core?.start()
    }
}
