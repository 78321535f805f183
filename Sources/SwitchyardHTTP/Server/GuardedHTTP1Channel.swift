import HummingbirdCore
import Logging
import NIOCore
import SwitchyardCore

/// Hummingbird's HTTP/1 child channel with Switchyard's connection guards first in each connection's
/// pipeline, ahead of HTTP decoding: ``ConnectionAddressLimitHandler`` (connections per client address)
/// and ``RequestHeadTimeoutHandler`` (time to send a request head).
struct GuardedHTTP1Channel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value

    let http: HTTP1Channel
    /// The per-address tally of the whole server.
    let addresses: ConnectionAddressLimitHandler.Shared
    let headTimeout: TimeAmount
    /// The executor each connection's requests run on (nil: the cooperative pool).
    let executor: @Sendable () -> (any TaskExecutor)?

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        do {
            // Runs on the channel's event loop, before any other handler is added.
            let pipeline = channel.pipeline.syncOperations
            try pipeline.addHandler(ConnectionAddressLimitHandler(shared: addresses, logger: logger))
            try pipeline.addHandler(RequestHeadTimeoutHandler(timeout: headTimeout))
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
        return http.setup(channel: channel, logger: logger)
    }

    func handle(value: Value, logger: Logger) async {
        await withTaskExecutorPreference(executor()) {
            await http.handle(value: value, logger: logger)
        }
    }
}

extension HTTPServerBuilder {
    /// An HTTP/1 server with the connection bounds of `bounds`: connections per client address, time to
    /// send a request head, time to send a whole request once its head is in, and idle time.
    ///
    /// Each connection's requests run on an executor from `executor` (nil: the cooperative pool).
    static func guardedHTTP1(
        _ bounds: PlatformPolicy.Server, executor: @escaping @Sendable () -> (any TaskExecutor)? = { nil }
    ) -> HTTPServerBuilder {
        let addresses = ConnectionAddressLimitHandler.Shared(limitPerAddress: bounds.maxConnectionsPerAddress)
        let readTimeout = TimeAmount.milliseconds(Int64(bounds.requestReadTimeoutMs))
        let configuration = HTTP1Channel.Configuration(
            additionalChannelHandlers: [RequestHeadSignalHandler(), RequestReadTimeoutHandler(timeout: readTimeout)],
            idleTimeout: .milliseconds(Int64(bounds.idleTimeoutMs)))
        return HTTPServerBuilder { responder in
            GuardedHTTP1Channel(
                http: HTTP1Channel(responder: responder, configuration: configuration), addresses: addresses,
                headTimeout: .milliseconds(Int64(bounds.requestHeadTimeoutMs)), executor: executor)
        }
    }
}
