import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A plain TCP connection to the test server, for what an HTTP client library would not do: stay idle,
/// send a request a byte at a time, watch for the server closing it. Blocking calls run on a thread of
/// their own (``RawConnection/offThread(_:)``), never on the test's concurrency threads.
final class RawConnection: @unchecked Sendable {
    private let fd: Int32

    /// What a read saw.
    enum ReadResult: Equatable {
        case data(String)
        /// The server closed the connection (end of stream or reset).
        case closed
        /// Nothing arrived within the read timeout.
        case timedOut
    }

    /// Connects to `127.0.0.1:port` from `source`, an address of the loopback network (all of
    /// `127.0.0.0/8` is loopback on Linux), so that one test can be several clients.
    init(port: Int, from source: String = "127.0.0.1") throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestFailure("socket() failed") }
        let fd = fd
        let steps: [(String, (UnsafePointer<sockaddr>, socklen_t) -> Int32, String, Int)] = [
            ("bind() to \(source)", { Glibc.bind(fd, $0, $1) }, source, 0),
            ("connect()", { Glibc.connect(fd, $0, $1) }, "127.0.0.1", port),
        ]
        for (name, call, host, port) in steps where Self.withAddress(host, port: port, call) != 0 {
            Glibc.close(fd)
            throw TestFailure("\(name) failed")
        }
    }

    /// Calls `body` with the IPv4 socket address `host:port`.
    private static func withAddress(
        _ host: String, port: Int, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32
    ) -> Int32 {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr(host)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
    }

    deinit { Glibc.close(fd) }

    /// Sends `text`; false when the server has closed the connection.
    @discardableResult
    func send(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count
    }

    /// Reads once, waiting at most `timeout` seconds.
    func read(timeout: Double) -> ReadResult {
        var time = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - Double(Int(timeout))) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let count = buffer.withUnsafeMutableBytes { Glibc.recv(fd, $0.baseAddress, $0.count, 0) }
        if count > 0 { return .data(String(decoding: buffer[0..<count], as: UTF8.self)) }
        if count == 0 { return .closed }
        return errno == EAGAIN || errno == EWOULDBLOCK ? .timedOut : .closed
    }

    /// Reads one whole HTTP response (its head, then a body of its Content-Length or a chunked one), which
    /// may arrive in several segments; returns what came when the timeout passed or the server closed first.
    func readResponse(timeout: Double) -> ReadResult {
        let deadline = Date().addingTimeInterval(timeout)
        var text = ""
        while true {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return text.isEmpty ? .timedOut : .data(text) }
            switch read(timeout: left) {
            case .data(let more):
                text += more
                if Self.isWholeResponse(text) { return .data(text) }
            case let other:
                return text.isEmpty ? other : .data(text)
            }
        }
    }

    /// Whether `text` holds a response's head and all of its body.
    static func isWholeResponse(_ text: String) -> Bool {
        guard let end = text.range(of: "\r\n\r\n") else { return false }
        let head = text[..<end.lowerBound].lowercased()
        let body = text[end.upperBound...]
        if head.contains("transfer-encoding: chunked") { return body.hasSuffix("0\r\n\r\n") }
        for line in head.split(separator: "\r\n") where line.hasPrefix("content-length:") {
            let length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) ?? 0
            return body.utf8.count >= length
        }
        return true
    }

    /// Reads until the server closes the connection or `timeout` seconds pass; true when it closed.
    func waitForClose(timeout: Double) -> Bool {
        guard timeout > 0 else { return read(timeout: 0.05) == .closed }
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            switch read(timeout: max(0.05, deadline.timeIntervalSinceNow)) {
            case .closed: return true
            case .data: continue
            case .timedOut: return false
            }
        }
        return false
    }

    /// Whether the server has closed the connection, looked at without waiting (nothing is consumed).
    var isClosedByPeer: Bool {
        var byte: UInt8 = 0
        let count = Glibc.recv(fd, &byte, 1, Int32(MSG_DONTWAIT | MSG_PEEK))
        if count == 0 { return true }
        return count < 0 && errno != EAGAIN && errno != EWOULDBLOCK
    }

    /// Raises this process's soft limit of open files to `wanted` (or its hard limit, if lower), for
    /// tests that hold thousands of connections.
    static func raiseOpenFileLimit(to wanted: rlim_t) {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < wanted else { return }
        limit.rlim_cur = min(wanted, limit.rlim_max)
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }

    /// Closes the connection from this side.
    func close() { shutdown(fd, Int32(SHUT_RDWR)) }

    /// Runs blocking `body` on a new thread.
    static func offThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: body()) }.start()
        }
    }
}
