import NIOCore
import NIOHTTPTypes

/// Tells ``RequestHeadTimeoutHandler``, earlier in the pipeline, when a request head has been decoded and
/// when an answer has been written, by outbound ``RequestHeadTimeoutHandler/Signal`` events. Sits after
/// HTTP decoding, where whole request and response parts pass.
final class RequestHeadSignalHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head = unwrapInboundIn(data) {
            context.triggerUserOutboundEvent(RequestHeadTimeoutHandler.Signal.headReceived, promise: nil)
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let isEnd = if case .end = unwrapOutboundIn(data) { true } else { false }
        context.write(data, promise: promise)
        if isEnd { context.triggerUserOutboundEvent(RequestHeadTimeoutHandler.Signal.answered, promise: nil) }
    }
}

@available(*, unavailable)
extension RequestHeadSignalHandler: Sendable {}
