import Logging
import NIOCore
import Synchronization

/// Closes a new connection at once when its client address already has the most connections it may
/// hold open (``ConnectionTally``), so that one client cannot take all of the server's connections. First
/// in a connection's pipeline; a connection without an IP address (a Unix socket) is not counted.
final class ConnectionAddressLimitHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    /// The tally of one server, shared by the handlers of all its connections (on any event loop).
    final class Shared: Sendable {
        private let tally: Mutex<ConnectionTally>

        init(limitPerAddress: Int) {
            tally = Mutex(ConnectionTally(limitPerAddress: limitPerAddress))
        }

        func admit(_ address: String) -> Bool { tally.withLock { $0.admit(address) } }
        func release(_ address: String) { tally.withLock { $0.release(address) } }
        /// The connections `address` has open.
        func count(_ address: String) -> Int { tally.withLock { $0.count(address) } }
    }

    /// Where a connection stands: not looked at yet, counted under its address, not counted (no IP
    /// address), or refused and closing.
    private enum State {
        case undecided
        case admitted(String)
        case uncounted
        case refused
    }

    private let shared: Shared
    private let logger: Logger
    private var state = State.undecided

    init(shared: Shared, logger: Logger) {
        self.shared = shared
        self.logger = logger
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { decide(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        decide(context)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // A refused connection is closing: nothing it sent is passed on.
        if case .refused = state { return }
        context.fireChannelRead(data)
    }

    func channelInactive(context: ChannelHandlerContext) {
        release()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        release()
    }

    private func decide(_ context: ChannelHandlerContext) {
        guard case .undecided = state else { return }
        guard let address = context.channel.remoteAddress?.ipAddress else {
            state = .uncounted
            return
        }
        if shared.admit(address) {
            state = .admitted(address)
        } else {
            state = .refused
            logger.debug("connection refused: too many from one address", metadata: ["client.address": "\(address)"])
            context.close(promise: nil)
        }
    }

    private func release() {
        guard case .admitted(let address) = state else { return }
        state = .uncounted
        shared.release(address)
    }
}

@available(*, unavailable)
extension ConnectionAddressLimitHandler: Sendable {}
