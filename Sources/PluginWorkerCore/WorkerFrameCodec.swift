/// The framing of the worker socket, one implementation for both ends: a big-endian `u32` length, then the
/// frame (``WorkerFrame/framed()`` writes it). The server's channel cuts frames with it through a NIO
/// decoder (`PluginHost`'s `WorkerFrameDecoder`), the worker's reader through ``WorkerFrameReader``; the
/// worker itself links no NIO, so a worker stays small.
extension WorkerFrame {
    /// The first whole frame at the start of `bytes` and the bytes it took, or `nil` while it is incomplete.
    ///
    /// - Throws: ``WorkerFrameError/oversized(_:)`` as soon as a length past ``maximumBytes`` is read (before
    ///   its bytes arrive), or the frame's own decoding error.
    package static func cut(_ bytes: UnsafeRawBufferPointer) throws(WorkerFrameError) -> (WorkerFrame, Int)? {
        guard bytes.count >= prefixBytes else { return nil }
        let length = Int(UInt32(bigEndian: bytes.loadUnaligned(as: UInt32.self)))
        guard length <= maximumBytes else { throw .oversized(length) }
        guard bytes.count >= prefixBytes + length else { return nil }
        let body = UnsafeRawBufferPointer(rebasing: bytes[prefixBytes..<(prefixBytes + length)])
        return (try decode(body), prefixBytes + length)
    }
}

/// The worker's side of the framing: the bytes read so far, and the frames cut from them.
package struct WorkerFrameReader: Sendable {
    private var pending: [UInt8] = []
    /// Where the unread bytes of `pending` begin (the bytes before were frames already handed out).
    private var start = 0

    package init() {}

    /// Adds the bytes just read.
    package mutating func append(_ bytes: UnsafeRawBufferPointer) {
        if start > 0 {
            pending.removeFirst(start)
            start = 0
        }
        pending.append(contentsOf: bytes)
    }

    /// The next whole frame, or `nil` until more bytes arrive.
    package mutating func next() throws(WorkerFrameError) -> WorkerFrame? {
        let offset = start
        let cut = pending.withUnsafeBytes { raw in
            Result { () throws(WorkerFrameError) in
                try WorkerFrame.cut(UnsafeRawBufferPointer(rebasing: raw[offset...]))
            }
        }
        guard let (frame, consumed) = try cut.get() else { return nil }
        start += consumed
        return frame
    }
}
