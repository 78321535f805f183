import NIOCore

/// Cuts ``WorkerFrame``s from the bytes of a worker socket: a big-endian `u32` length, then the frame.
/// Both ends use it: the server's channel through `ByteToMessageHandler`, the worker's reader through
/// `NIOSingleStepByteToMessageProcessor`. A length past ``WorkerFrame/maximumBytes`` or bytes that are
/// not a frame are an error: the connection ends.
package struct WorkerFrameDecoder: NIOSingleStepByteToMessageDecoder {
    package typealias InboundOut = WorkerFrame

    package init() {}

    package mutating func decode(buffer: inout ByteBuffer) throws -> WorkerFrame? {
        guard let length = buffer.getInteger(at: buffer.readerIndex, as: UInt32.self) else { return nil }
        guard Int(length) <= WorkerFrame.maximumBytes else { throw WorkerFrameError.oversized(Int(length)) }
        guard buffer.readableBytes >= WorkerFrame.prefixBytes + Int(length) else { return nil }
        buffer.moveReaderIndex(forwardBy: WorkerFrame.prefixBytes)
        let body = buffer.readSlice(length: Int(length))!
        return try body.withUnsafeReadableBytes { raw in
            try Result { () throws(WorkerFrameError) in try WorkerFrame.decode(raw) }.get()
        }
    }

    package mutating func decodeLast(buffer: inout ByteBuffer, seenEOF: Bool) throws -> WorkerFrame? {
        try decode(buffer: &buffer)
    }
}

/// Writes a ``WorkerFrame`` with its length prefix, for ``WorkerFrameDecoder`` on the other end.
package struct WorkerFrameEncoder: MessageToByteEncoder {
    package typealias OutboundIn = WorkerFrame

    package init() {}

    package func encode(data: WorkerFrame, out: inout ByteBuffer) throws {
        out.writeBytes(try data.framed())
    }
}
