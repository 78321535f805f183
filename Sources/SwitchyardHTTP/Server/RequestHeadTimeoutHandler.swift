import NIOCore

/// Closes a connection that does not send a complete request head within `timeout`, counted from its
/// opening and, on a kept-alive connection, from the first byte of each further request: a client that
/// connects and sends nothing, or trickles its head, holds a connection only that long. Sits first in the
/// pipeline, where it sees bytes arrive; ``RequestHeadSignalHandler``, after HTTP decoding, tells it (by
/// outbound ``Signal`` events) when a head is decoded and when an answer is written. Between an answer and
/// the next request's first byte the connection's idle timeout applies instead.
final class RequestHeadTimeoutHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = IOData
    typealias OutboundOut = IOData

    /// What ``RequestHeadSignalHandler`` reports of a request.
    enum Signal: Sendable {
        /// A whole request head was decoded.
        case headReceived
        /// The answer to a request was written in full.
        case answered
    }

    private let timeout: TimeAmount
    private var deadline: Scheduled<Void>?
    /// Requests whose head arrived and whose answer is not written yet.
    private var requestsInProgress = 0

    init(timeout: TimeAmount) {
        self.timeout = timeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { arm(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        arm(context)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // The first byte of a new request starts its deadline.
        if requestsInProgress == 0 { arm(context) }
        context.fireChannelRead(data)
    }

    func triggerUserOutboundEvent(context: ChannelHandlerContext, event: Any, promise: EventLoopPromise<Void>?) {
        guard let signal = event as? Signal else {
            context.triggerUserOutboundEvent(event, promise: promise)
            return
        }
        switch signal {
        case .headReceived:
            disarm()
            requestsInProgress += 1
        case .answered:
            requestsInProgress = max(0, requestsInProgress - 1)
        }
        promise?.succeed()
    }

    func channelInactive(context: ChannelHandlerContext) {
        disarm()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        disarm()
    }

    /// Starts the deadline unless one is running.
    private func arm(_ context: ChannelHandlerContext) {
        guard deadline == nil else { return }
        let channel = context.channel
        deadline = context.eventLoop.scheduleTask(in: timeout) { channel.close(promise: nil) }
    }

    private func disarm() {
        deadline?.cancel()
        deadline = nil
    }
}

@available(*, unavailable)
extension RequestHeadTimeoutHandler: Sendable {}
