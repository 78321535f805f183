import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import ProviderKit
import Synchronization

/// Collects one response and records whether the request head was handed to the connection — the
/// fact that separates "certainly not sent" from "maybe sent".
final class ExchangeDelegate: HTTPClientResponseDelegate, Sendable {
    struct Collected: Sendable {
        var status: Int
        var headers: [HTTPHeader]
        var body: Data
    }

    /// The response body exceeded the limit; the exchange counts as having no response.
    struct ResponseTooLarge: Error {
        let limit: Int
    }

    typealias Response = Collected

    private struct State {
        var headSent = false
        var collected = Collected(status: 0, headers: [], body: Data())
    }

    private let maximumBytes: Int
    private let state = Mutex(State())

    init(maximumBytes: Int) {
        self.maximumBytes = maximumBytes
    }

    /// Whether the request head was written to a connection (then it may have reached the server).
    var requestHeadSent: Bool { state.withLock { $0.headSent } }

    func didSendRequestHead(task: HTTPClient.Task<Collected>, _ head: HTTPRequestHead) {
        state.withLock { $0.headSent = true }
    }

    func didReceiveHead(task: HTTPClient.Task<Collected>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        state.withLock { state in
            state.collected.status = Int(head.status.code)
            state.collected.headers = head.headers.map { HTTPHeader($0.name, $0.value) }
        }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Collected>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        let fits = state.withLock { state -> Bool in
            guard state.collected.body.count + buffer.readableBytes <= maximumBytes else { return false }
            state.collected.body.append(contentsOf: buffer.readableBytesView)
            return true
        }
        guard fits else {
            return task.eventLoop.makeFailedFuture(ResponseTooLarge(limit: maximumBytes))
        }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didFinishRequest(task: HTTPClient.Task<Collected>) throws -> Collected {
        state.withLock { $0.collected }
    }
}
