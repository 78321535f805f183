import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// One message between the server and a plugin worker, sent as a length-prefixed JSON frame.
///
/// Server to worker: `invoke` (id, method, body = request JSON), `cancel` (id), `sendResult` (id, body =
/// outbound result JSON), `nowResult` (id, time). Worker to server: `ready`, `failed` (body = reason),
/// `reply` (id, body = reply JSON), `send` (id, body = outbound request JSON), `log` (level, body =
/// message, metadata), `now` (id).
struct WorkerMessage: Codable, Sendable, Equatable {
    enum Kind: String, Codable, Sendable {
        case ready, failed, invoke, reply, cancel, send, sendResult, log, now, nowResult
    }

    var kind: Kind
    var id: UInt64 = 0
    var method: String?
    var body: String?
    var level: Int32?
    var metadata: String?
    var time: Int64?
}

/// A connected stream socket carrying ``WorkerMessage`` frames: a 4-byte big-endian length, then that
/// many bytes of JSON. Reads block; writes are serialised and never raise SIGPIPE.
final class WorkerChannel: @unchecked Sendable {
    /// The largest frame either side accepts; a longer one ends the connection.
    static let maximumFrameBytes = 16 << 20

    let fd: Int32
    private let writeLock = NSLock()

    init(fd: Int32) {
        self.fd = fd
    }

    deinit {
        // Only here: closing while another thread may still write could hand the number to a new file.
        _ = Glibc.close(fd)
    }

    /// Sends `message`; false when the peer is gone.
    @discardableResult
    func send(_ message: WorkerMessage) -> Bool {
        guard let json = try? JSONEncoder().encode(message), json.count <= Self.maximumFrameBytes else { return false }
        var frame = Data(capacity: json.count + 4)
        let length = UInt32(json.count).bigEndian
        withUnsafeBytes(of: length) { frame.append(contentsOf: $0) }
        frame.append(json)
        writeLock.lock()
        defer { writeLock.unlock() }
        return frame.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = Glibc.send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if written < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += written
            }
            return true
        }
    }

    /// The next message; `nil` at end of stream, on a read error, or on a frame that is too large or
    /// does not decode.
    func receive() -> WorkerMessage? {
        var header = [UInt8](repeating: 0, count: 4)
        guard readExactly(&header) else { return nil }
        let length = Int(header[0]) << 24 | Int(header[1]) << 16 | Int(header[2]) << 8 | Int(header[3])
        guard length <= Self.maximumFrameBytes else { return nil }
        var body = [UInt8](repeating: 0, count: length)
        guard readExactly(&body) else { return nil }
        return try? JSONDecoder().decode(WorkerMessage.self, from: Data(body))
    }

    /// Ends both directions: a reader blocked on this channel sees the end of the stream.
    func shutdownBoth() {
        _ = Glibc.shutdown(fd, Int32(SHUT_RDWR))
    }

    private func readExactly(_ buffer: inout [UInt8]) -> Bool {
        var offset = 0
        let count = buffer.count
        return buffer.withUnsafeMutableBytes { raw in
            while offset < count {
                let got = Glibc.read(fd, raw.baseAddress! + offset, count - offset)
                if got < 0 && errno == EINTR { continue }
                if got <= 0 { return false }
                offset += got
            }
            return true
        }
    }
}
