import NIOCore
import NIOPosix
import PluginWorkerCore

/// The last handler of a worker's channel: hands its frames to the ``WorkerConnection`` and tells it
/// when the stream ended (the worker died or the server closed it). An error ends the channel.
final class WorkerConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = WorkerFrame

    private let connection: WorkerConnection

    init(connection: WorkerConnection) {
        self.connection = connection
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        connection.handle(unwrapInboundIn(data), on: context.channel)
    }

    func channelInactive(context: ChannelHandlerContext) {
        connection.streamEnded()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    /// A channel on the server's end `fd` of a worker's socket pair (the channel owns `fd`), framed by
    /// ``WorkerFrameDecoder`` and ``WorkerFrameEncoder`` (the worker's own codec) and carrying ``WorkerFrame``s to and from `connection`.
    static func channel(fd: Int32, connection: WorkerConnection) async throws -> any Channel {
        try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandlers(
                        ByteToMessageHandler(
                            WorkerFrameDecoder(), maximumBufferSize: WorkerFrame.prefixBytes + WorkerFrame.maximumBytes),
                        MessageToByteHandler(WorkerFrameEncoder()),
                        WorkerConnectionHandler(connection: connection))
                }
            }
            .withConnectedSocket(fd)
            .get()
    }
}
