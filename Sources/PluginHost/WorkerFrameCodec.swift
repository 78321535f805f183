import NIOCore
import PluginWorkerCore

/// The server's NIO decoder for a worker's stream: ``WorkerFrame/cut(_:)``, the framing the worker's own
/// reader uses. A length past ``WorkerFrame/maximumBytes`` or bytes that are not a frame are an error: the
/// connection ends.
struct WorkerFrameDecoder: NIOSingleStepByteToMessageDecoder {
    typealias InboundOut = WorkerFrame

    mutating func decode(buffer: inout ByteBuffer) throws -> WorkerFrame? {
        let cut = buffer.withUnsafeReadableBytes { raw in
            Result { () throws(WorkerFrameError) in try WorkerFrame.cut(raw) }
        }
        guard let (frame, consumed) = try cut.get() else { return nil }
        buffer.moveReaderIndex(forwardBy: consumed)
        return frame
    }

    mutating func decodeLast(buffer: inout ByteBuffer, seenEOF: Bool) throws -> WorkerFrame? {
        try decode(buffer: &buffer)
    }
}

/// The server's NIO encoder for a worker's stream: ``WorkerFrame/framed()``, as the worker writes.
struct WorkerFrameEncoder: MessageToByteEncoder {
    typealias OutboundIn = WorkerFrame

    func encode(data: WorkerFrame, out: inout ByteBuffer) throws {
        out.writeBytes(try data.framed())
    }
}
