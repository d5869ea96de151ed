import Foundation
import LoadingKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Answers every request at once with the same body: the kit's cost without a mock's
/// bookkeeping.
struct InstantTransport: Transport {
    let body: Data

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        (
            body,
            ok(request)
        )
    }
}

/// Serves pages of 100 items, `?page=N`, from memory.
final class PageTransport: Transport {
    private let cache = Locked<[Int: Data]>([:])

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let page =
            URLComponents(url: request.url!, resolvingAgainstBaseURL: false)?
            .queryItems?.first { $0.name == "page" }?.value.flatMap(Int.init) ?? 1
        let body = try cache.withLock { cache in
            if let body = cache[page] { return body }
            let items = ((page - 1) * 100..<page * 100).map {
                BenchItem(id: $0, title: "Item \($0)")
            }
            let body = try JSONEncoder().encode(items)
            cache[page] = body
            return body
        }
        return (body, ok(request))
    }
}

/// Counts requests and answers each after `delay`.
final class CountingTransport: Transport {
    let body: Data
    let delay: Duration
    private let counter = Locked(0)

    init(body: Data, delay: Duration) {
        self.body = body
        self.delay = delay
    }

    var requests: Int { counter.withLock { $0 } }

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        counter.withLock { $0 += 1 }
        try await Task.sleep(for: delay)
        return (body, ok(request))
    }
}

/// A bare `200 OK` for `request`.
private func ok(_ request: URLRequest) -> HTTPURLResponse {
    HTTPURLResponse(url: request.url!, statusCode: 200, httpVersion: nil, headerFields: nil)!
}

/// A transport that answers nothing until its request is cancelled, for a cold start
/// measured up to the network.
struct SilentTransport: Transport {
    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        try await Task.sleep(for: .seconds(3600))
        throw CancellationError()
    }
}

/// A monitor that counts the events it hears, as the cheapest real listener would.
final class CountingMonitor: LoadingMonitor {
    private let heard = Locked(0)

    /// The events heard so far.
    var count: Int { heard.withLock { $0 } }

    func record(_ event: LoadingEvent) {
        heard.withLock { $0 += 1 }
    }
}
