import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A loopback TCP listener on plain POSIX sockets, for testing how the HTTP client classifies failures.
final class RawTCPServer: @unchecked Sendable {
    enum Behaviour: Sendable {
        /// Accept and read the request, then never answer.
        case silent
        /// Accept, read the request head, then close.
        case closeAfterRead
        /// Accept, read the request (head and `Content-Length` body), then write `response` and close.
        case respond(String)
        /// Like `respond`, but keep the connection open and answer every further request on it the same
        /// way, until the client closes it.
        case keepAlive(String)
    }

    let port: UInt16
    private let listener: Int32
    private let behaviour: Behaviour
    private let lock = NSLock()
    /// Descriptors owned by a server thread that has not closed them yet. Each descriptor is closed
    /// only by its owning thread, after it was removed from this set, so ``stop()`` never touches a
    /// descriptor number that the process may already have reused.
    private var live: Set<Int32> = []
    private var stopped = false
    private var received: [Data] = []
    private var acceptedCount = 0

    init(_ behaviour: Behaviour) throws {
        self.behaviour = behaviour
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(listener, 16) == 0 else {
            close(listener)
            throw POSIXError(.EADDRINUSE)
        }
        port = Self.localPort(listener)
        live.insert(listener)
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    /// How many connections were accepted.
    var accepted: Int { lock.withLock { acceptedCount } }

    /// What each connection sent, in order of arrival.
    var requests: [String] {
        lock.withLock { received.map { String(decoding: $0, as: UTF8.self) } }
    }

    /// Stops listening and ends every connection (their threads then close them).
    func stop() {
        lock.withLock {
            stopped = true
            for descriptor in live {
                shutdown(descriptor, Int32(SHUT_RDWR))
            }
        }
    }

    /// A listener that never accepts, whose accept queue is already full: new connection attempts hang
    /// in the handshake. Returns the port and a function that closes everything.
    static func saturatedListener() -> (port: UInt16, close: @Sendable () -> Void) {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        listen(listener, 0)
        let port = localPort(listener)
        address.sin_port = port.bigEndian
        var fillers: [Int32] = []
        for _ in 0..<4 {
            let filler = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            let flags = fcntl(filler, F_GETFL)
            _ = fcntl(filler, F_SETFL, flags | O_NONBLOCK)
            _ = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(filler, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            fillers.append(filler)
        }
        // The first filler's handshake completing (its socket turning writable) is the event that the
        // queue is full; the others then stay pending.
        var first = pollfd(fd: fillers[0], events: Int16(POLLOUT), revents: 0)
        _ = poll(&first, 1, 5_000)
        let descriptors = fillers + [listener]
        return (port, { for descriptor in descriptors { close(descriptor) } })
    }

    /// A loopback port on which nothing listens (bound, then released).
    static func closedPort() -> UInt16 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        let port = localPort(descriptor)
        close(descriptor)
        return port
    }

    private static func localPort(_ descriptor: Int32) -> UInt16 {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return UInt16(bigEndian: address.sin_port)
    }

    private func acceptLoop() {
        while true {
            let connection = accept(listener, nil, nil)
            let keep: Bool = lock.withLock {
                if connection >= 0 && !stopped {
                    live.insert(connection)
                    acceptedCount += 1
                    return true
                }
                return false
            }
            guard keep else {
                if connection >= 0 { close(connection) }
                release(listener)
                return
            }
            let thread = Thread { [self] in serve(connection) }
            thread.start()
        }
    }

    private func serve(_ connection: Int32) {
        let request = readRequest(connection)
        lock.withLock { received.append(request) }
        switch behaviour {
        case .silent:
            // Never answer; wait until the client gives up or the server stops.
            var buffer = [UInt8](repeating: 0, count: 1024)
            while read(connection, &buffer, buffer.count) > 0 {}
        case .closeAfterRead:
            break
        case .respond(let response):
            let bytes = Array(response.utf8)
            _ = bytes.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        case .keepAlive(let response):
            let bytes = Array(response.utf8)
            var next = request
            while !next.isEmpty {
                _ = bytes.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                next = readRequest(connection)
                if !next.isEmpty { lock.withLock { received.append(next) } }
            }
        }
        release(connection)
    }

    /// Forgets `descriptor` and closes it (called only by the thread that owns it).
    private func release(_ descriptor: Int32) {
        lock.withLock { _ = live.remove(descriptor) }
        close(descriptor)
    }

    /// Reads the head and, if `Content-Length` says so, the body.
    private func readRequest(_ connection: Int32) -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(connection, &buffer, buffer.count)
            if count <= 0 { return data }
            data.append(contentsOf: buffer[0..<count])
            guard let headEnd = data.range(of: Data("\r\n\r\n".utf8)) else { continue }
            let head = String(decoding: data[..<headEnd.lowerBound], as: UTF8.self).lowercased()
            let length =
                head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
                .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
            if data.count - headEnd.upperBound >= length { return data }
        }
    }
}
