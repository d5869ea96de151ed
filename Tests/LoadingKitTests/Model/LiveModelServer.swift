import Foundation
import LoadingKit
import LoadingKitTesting

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A server the live model drives: each connection is answered as the model said last,
/// and every open body is one the model can push to or drop.
final class LiveModelServer: StreamingTransport {
    /// How the next connection is answered.
    enum Answer: Sendable {
        case stream
        case noContent
        case unauthorized
        case unavailable
    }

    private struct State {
        var next = Answer.stream
        var open: [Int: AsyncThrowingStream<Data, any Error>.Continuation] = [:]
        var lastBody = 0
        var lastSent = 0
        /// The bodies whose request was sent: its task was not cancelled by then.
        var sent: Set<Int> = []
        var mostOpen = 0
    }

    private let state = Locked(State())
    /// Counts each body closed, by either side.
    let closed = CounterSignal()

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        throw URLError(.unsupportedURL)
    }

    func stream(_ request: URLRequest) async throws -> (ResponseBody, HTTPURLResponse) {
        let id = Locked(0)
        let (body, continuation) = ResponseBody.makeBody { [self] in close(id.withLock { $0 }) }
        // The answer is decided and the body opened in one step: a drop finds it open.
        let answer = state.withLock { state in
            defer { state.next = .stream }
            state.lastBody += 1
            if state.next == .stream {
                id.withLock { $0 = state.lastBody }
                state.open[state.lastBody] = continuation
            }
            return state.next
        }
        let (status, type): (Int, String) =
            switch answer {
            case .stream: (200, "text/event-stream")
            case .noContent: (204, "text/plain")
            case .unauthorized: (401, "text/plain")
            case .unavailable: (503, "text/plain")
            }
        let response = HTTPURLResponse(
            url: request.url!,
            statusCode: status,
            httpVersion: "HTTP/1.1",
            headerFields: ["Content-Type": type]
        )!
        guard answer == .stream else {
            continuation.finish()
            return (body, response)
        }
        // As a real transport, a request whose task is cancelled by now is not sent.
        guard !Task.isCancelled else {
            close(id.withLock { $0 })
            throw CancellationError()
        }
        state.withLock { state in
            let id = id.withLock { $0 }
            // Closed already, by a drop: never counted.
            guard state.open[id] != nil else { return }
            state.sent.insert(id)
            state.mostOpen = max(state.mostOpen, state.sent.count)
        }
        return (body, response)
    }

    /// How the next connection is answered.
    func answerNext(_ answer: Answer) {
        state.withLock { $0.next = answer }
    }

    /// Sends the next numbered event to every open body; returns its number.
    @discardableResult
    func push() -> Int {
        let (number, open) = state.withLock { state in
            state.lastSent += 1
            return (state.lastSent, Array(state.open.values))
        }
        for body in open {
            body.yield(Data("id: \(number)\ndata: \(number)\n\n".utf8))
        }
        return number
    }

    /// Cuts every open connection in the middle of an event.
    func drop() {
        let open = state.withLock { state in
            defer {
                state.open = [:]
                state.sent = []
            }
            return Array(state.open.values)
        }
        for body in open {
            body.yield(Data("id: 0\ndata: cut".utf8))
            body.finish(throwing: URLError(.networkConnectionLost))
            closed.increment()
        }
    }

    private func close(_ id: Int) {
        let wasOpen = state.withLock { state in
            state.sent.remove(id)
            return state.open.removeValue(forKey: id) != nil
        }
        if wasOpen {
            closed.increment()
        }
    }

    /// The number of the last event sent.
    var lastSent: Int { state.withLock { $0.lastSent } }

    /// The bodies open now.
    var openCount: Int { state.withLock { $0.open.count } }

    /// The most bodies open at once whose requests were sent.
    var mostOpen: Int { state.withLock { $0.mostOpen } }
}
