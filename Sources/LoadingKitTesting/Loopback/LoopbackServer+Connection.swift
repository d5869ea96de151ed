import Foundation

extension LoopbackServer {
    /// Serves one keep-alive connection: reads requests, answers each in one write.
    struct Connection {
        let socket: Socket
        let core: Core
        private var buffer: [UInt8] = []
        private var requestsRead = 0

        init(socket: Socket, core: Core) {
            self.socket = socket
            self.core = core
        }

        mutating func serve() {
            while let (request, keepAlive) = nextRequest() {
                let response = core.handler(for: request)(request)
                guard core.wait(response.delay) else { return }
                if let body = response.streamedBody {
                    guard stream(body, of: response, keepAlive: keepAlive) else { return }
                    continue
                }
                for (index, part) in response.parts(keepAlive: keepAlive).enumerated() {
                    guard index == 0 || core.wait(response.trickleInterval), socket.send(part)
                    else {
                        return
                    }
                }
                guard keepAlive, !response.closesConnection else { return }
            }
        }

        /// Sends `response`'s head, then `body` in chunks as the test writes it; returns
        /// whether the connection may serve another request.
        private func stream(
            _ body: StreamedBody,
            of response: MockResponse,
            keepAlive: Bool
        ) -> Bool {
            var head = "HTTP/1.1 \(response.statusCode) Status\r\n"
            for (name, value) in response.headers.fields {
                head += "\(name): \(value)\r\n"
            }
            head += "Transfer-Encoding: chunked\r\n"
            head += keepAlive ? "Connection: keep-alive\r\n\r\n" : "Connection: close\r\n\r\n"
            body.open()
            guard socket.send(Array(head.utf8)) else {
                body.clientLeft()
                return false
            }
            while true {
                guard let part = body.next(waitingAtMost: 0.05) else {
                    // Nothing to send: the client may have gone, or the server stopped.
                    if core.isStopped || socket.isClosedByPeer {
                        body.clientLeft()
                        return false
                    }
                    continue
                }
                switch part {
                case .bytes(let bytes):
                    guard !bytes.isEmpty else { continue }
                    let chunk =
                        Array((String(bytes.count, radix: 16) + "\r\n").utf8) + bytes
                        + Array("\r\n".utf8)
                    guard socket.send(chunk) else {
                        body.clientLeft()
                        return false
                    }
                case .end:
                    return socket.send(Array("0\r\n\r\n".utf8)) && keepAlive
                case .drop:
                    return false
                }
            }
        }

        /// Reads the next request; `nil` at the end of the stream or on a malformed one.
        private mutating func nextRequest() -> (Request, keepAlive: Bool)? {
            guard let headEnd = readUntilHeadEnd() else { return nil }
            let head = String(decoding: buffer[..<headEnd], as: UTF8.self)
            buffer.removeFirst(headEnd + 4)
            var lines = head.split(separator: "\r\n", omittingEmptySubsequences: false)
            let requestLine = lines.removeFirst().split(separator: " ")
            guard requestLine.count == 3 else {
                _ = socket.send(
                    MockResponse.text("Bad request", status: 400).serialized(keepAlive: false)
                )
                return nil
            }
            let headers = lines.compactMap { line -> (name: String, value: String)? in
                guard let colon = line.firstIndex(of: ":") else { return nil }
                let name = line[..<colon].trimmingCharacters(in: .whitespaces)
                let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                return (name, value)
            }
            let length =
                headers.first { $0.name.lowercased() == "content-length" }
                .flatMap { Int($0.value) } ?? 0
            guard let body = read(count: length) else { return nil }
            requestsRead += 1
            let request = Request(
                method: String(requestLine[0]),
                target: String(requestLine[1]),
                headers: headers,
                body: Data(body),
                numberOnConnection: requestsRead
            )
            let connection = request.header("connection")?.lowercased()
            let keepAlive =
                requestLine[2] == "HTTP/1.1" ? connection != "close" : connection == "keep-alive"
            return (request, keepAlive)
        }

        private mutating func readUntilHeadEnd() -> Int? {
            var searchFrom = 0
            while true {
                if let end = headEnd(from: searchFrom) {
                    return end
                }
                searchFrom = max(0, buffer.count - 3)
                let chunk = socket.receive()
                guard !chunk.isEmpty else { return nil }
                buffer += chunk
            }
        }

        private func headEnd(from start: Int) -> Int? {
            guard buffer.count >= 4 else { return nil }
            var index = start
            while index + 3 < buffer.count {
                if buffer[index] == 13, buffer[index + 1] == 10, buffer[index + 2] == 13,
                    buffer[index + 3] == 10
                {
                    return index
                }
                index += 1
            }
            return nil
        }

        private mutating func read(count: Int) -> [UInt8]? {
            while buffer.count < count {
                let chunk = socket.receive()
                guard !chunk.isEmpty else { return nil }
                buffer += chunk
            }
            let body = Array(buffer[..<count])
            buffer.removeFirst(count)
            return body
        }
    }
}
