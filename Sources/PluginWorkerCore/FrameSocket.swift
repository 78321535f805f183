import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A connected stream socket carrying ``WorkerFrame``s with blocking reads; writes are serialised and
/// never raise SIGPIPE. The worker process's side of its connection to the server.
final class FrameSocket: @unchecked Sendable {
    let fd: Int32
    private let writeLock = NSLock()

    init(fd: Int32) {
        self.fd = fd
    }

    deinit {
        // Only here: closing while another thread may still write could hand the number to a new file.
        _ = Glibc.close(fd)
    }

    /// Sends `frame`; false when the peer is gone or the frame is too large.
    @discardableResult
    func send(_ frame: WorkerFrame) -> Bool {
        guard let bytes = try? frame.framed() else { return false }
        writeLock.lock()
        defer { writeLock.unlock() }
        return bytes.withUnsafeBytes { raw in
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

    /// The next frame; `nil` at end of stream, on a read error, or on a frame that is too large or does
    /// not decode.
    func receive() -> WorkerFrame? {
        var prefix = [UInt8](repeating: 0, count: WorkerFrame.prefixBytes)
        guard readExactly(&prefix) else { return nil }
        let length = prefix.reduce(0) { $0 << 8 | Int($1) }
        guard length <= WorkerFrame.maximumBytes else { return nil }
        var body = [UInt8](repeating: 0, count: length)
        guard readExactly(&body) else { return nil }
        return try? WorkerFrame.decode(body)
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
