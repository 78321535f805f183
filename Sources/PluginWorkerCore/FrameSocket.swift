#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The worker process's side of its connection to the server: a connected stream socket carrying
/// ``WorkerFrame``s in the framing the server's channel uses (``WorkerFrame/cut(_:)`` through
/// ``WorkerFrameReader``, ``WorkerFrame/framed()``). One thread reads (and, for a plugin that returns
/// promptly, runs the jobs of the worker's tasks between frames); writes are serialised and never raise
/// SIGPIPE.
final class FrameSocket: Sendable {
    let fd: Int32
    private let writeLock = Mutex(())
    private static let readChunk = 16 << 10

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
        return writeLock.withLock { _ -> Bool in
            bytes.withUnsafeBytes { raw in
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
    }

    /// Hands each frame read to `handle` until the stream ends, a read fails, or bytes arrive that are not
    /// a frame (or one that is too large). With an `executor`, runs its jobs whenever no frame is left to
    /// handle, and waits for the socket and the executor's wake-up together.
    func readFrames(runningJobsOf executor: WorkerExecutor? = nil, _ handle: (WorkerFrame) -> Void) {
        var reader = WorkerFrameReader()
        var chunk = [UInt8](repeating: 0, count: Self.readChunk)
        var waits = [
            pollfd(fd: fd, events: Int16(POLLIN), revents: 0),
            pollfd(fd: executor?.wakeFD ?? -1, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            if let executor {
                let more = executor.runJobs()
                let ready = poll(&waits, nfds_t(waits.count), more ? 0 : -1)
                if ready < 0 && errno != EINTR { return }
                if waits[1].revents != 0 { executor.clearWakeUp() }
                guard ready > 0, waits[0].revents != 0 else { continue }
            }
            let got = chunk.withUnsafeMutableBytes { raw in
                var count: Int
                repeat { count = Glibc.read(fd, raw.baseAddress!, raw.count) } while count < 0 && errno == EINTR
                return count
            }
            guard got > 0 else { return }
            chunk.withUnsafeBytes { reader.append(UnsafeRawBufferPointer(rebasing: $0[..<got])) }
            do throws(WorkerFrameError) {
                while let frame = try reader.next() { handle(frame) }
            } catch {
                return
            }
        }
    }
}
