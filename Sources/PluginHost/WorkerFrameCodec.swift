import NIOCore
import PluginWorkerCore

/// Turns the bodies `LengthFieldBasedFrameDecoder` cuts from the worker's stream into ``WorkerFrame``s,
/// and frames to bytes for `LengthFieldPrepender`. Bytes that are not a frame are an error: the
/// connection ends.
final class WorkerFrameCodec: ChannelDuplexHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = WorkerFrame
    typealias OutboundIn = WorkerFrame
    typealias OutboundOut = ByteBuffer

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let body = unwrapInboundIn(data)
        do {
            let frame = try body.withUnsafeReadableBytes { raw in
                try Result { () throws(WorkerFrameError) in try WorkerFrame.decode(raw) }.get()
            }
            context.fireChannelRead(wrapInboundOut(frame))
        } catch {
            context.fireErrorCaught(error)
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        do {
            let bytes = try unwrapOutboundIn(data).encoded()
            var buffer = context.channel.allocator.buffer(capacity: bytes.count)
            buffer.writeBytes(bytes)
            context.write(wrapOutboundOut(buffer), promise: promise)
        } catch {
            promise?.fail(error)
        }
    }
}
