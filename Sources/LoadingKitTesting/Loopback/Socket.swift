#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A thin owner of one TCP socket descriptor on the loopback interface.
struct Socket: Sendable {
    let descriptor: Int32

    /// The error of a socket call, with `errno`.
    struct Failure: Error, CustomStringConvertible {
        let call: String
        let code: Int32
        var description: String { "\(call) failed: \(String(cString: strerror(code)))" }
    }

    /// A socket listening on `127.0.0.1` at `port`, or at an ephemeral port for 0.
    static func listening(port: UInt16 = 0, backlog: Int32 = 128) throws(Failure) -> Socket {
        let socket = try bound(port: port)
        guard listen(socket.descriptor, backlog) == 0 else {
            let code = errno
            socket.close()
            throw Failure(call: "listen", code: code)
        }
        return socket
    }

    /// A socket bound to `127.0.0.1` at `port`, or at an ephemeral port for 0, that does
    /// not listen: on Linux it keeps the port from being given to another socket that
    /// asks for an ephemeral one, while connections to it are refused, and a socket
    /// that listens can be bound beside it, both reusing the address.
    static func bound(port: UInt16 = 0) throws(Failure) -> Socket {
        #if canImport(Darwin)
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #else
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #endif
        guard descriptor >= 0 else { throw Failure(call: "socket", code: errno) }
        let socket = Socket(descriptor: descriptor)
        var yes: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else {
            let code = errno
            socket.close()
            throw Failure(call: "bind", code: code)
        }
        return socket
    }

    /// The port the socket is bound to.
    var port: UInt16 {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                getsockname(descriptor, $0, &length)
            }
        }
        return UInt16(bigEndian: address.sin_port)
    }

    /// Waits for the next connection; `nil` once the socket is shut down.
    func accept() -> Socket? {
        while true {
            #if canImport(Darwin)
                let connection = Darwin.accept(descriptor, nil, nil)
            #else
                let connection = Glibc.accept(descriptor, nil, nil)
            #endif
            if connection >= 0 {
                var yes: Int32 = 1
                setsockopt(
                    connection,
                    Int32(IPPROTO_TCP),
                    TCP_NODELAY,
                    &yes,
                    socklen_t(MemoryLayout<Int32>.size)
                )
                return Socket(descriptor: connection)
            }
            if errno != EINTR {
                return nil
            }
        }
    }

    /// Reads what is available, up to `capacity` bytes; empty at end of stream or on
    /// error.
    func receive(capacity: Int = 64 * 1024) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: capacity)
        while true {
            let count = buffer.withUnsafeMutableBytes {
                recv(descriptor, $0.baseAddress, capacity, 0)
            }
            if count > 0 {
                buffer.removeLast(capacity - count)
                return buffer
            }
            if count < 0 && errno == EINTR {
                continue
            }
            return []
        }
    }

    /// Whether the peer closed its side: a read would find the end of the stream. Looks
    /// without waiting and without taking any byte.
    var isClosedByPeer: Bool {
        var byte: UInt8 = 0
        let count = recv(descriptor, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        return count == 0
            || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
    }

    /// Writes all of `bytes`; returns whether they were written.
    @discardableResult
    func send<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Bool {
        let array = Array(bytes)
        var offset = 0
        while offset < array.count {
            let written = array.withUnsafeBytes { buffer in
                #if canImport(Darwin)
                    Darwin.send(descriptor, buffer.baseAddress! + offset, array.count - offset, 0)
                #else
                    Glibc.send(
                        descriptor,
                        buffer.baseAddress! + offset,
                        array.count - offset,
                        Int32(MSG_NOSIGNAL)
                    )
                #endif
            }
            if written < 0 && errno == EINTR {
                continue
            }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }

    /// Stops reads and writes in both directions, waking any thread blocked on them.
    func shutdown() {
        #if canImport(Darwin)
            _ = Darwin.shutdown(descriptor, SHUT_RDWR)
        #else
            _ = Glibc.shutdown(descriptor, Int32(SHUT_RDWR))
        #endif
    }

    /// Releases the descriptor.
    func close() {
        #if canImport(Darwin)
            _ = Darwin.close(descriptor)
        #else
            _ = Glibc.close(descriptor)
        #endif
    }
}
