import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import ProviderKit

/// Collects one response and records whether the request head was handed to the connection — the
/// fact that separates "certainly not sent" from "maybe sent".
final class ExchangeDelegate: HTTPClientResponseDelegate, @unchecked Sendable {
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

    private let maximumBytes: Int
    private let lock = NSLock()
    private var headSent = false
    private var collected = Collected(status: 0, headers: [], body: Data())

    init(maximumBytes: Int) {
        self.maximumBytes = maximumBytes
    }

    /// Whether the request head was written to a connection (then it may have reached the server).
    var requestHeadSent: Bool {
        lock.lock()
        defer { lock.unlock() }
        return headSent
    }

    func didSendRequestHead(task: HTTPClient.Task<Collected>, _ head: HTTPRequestHead) {
        lock.lock()
        headSent = true
        lock.unlock()
    }

    func didReceiveHead(task: HTTPClient.Task<Collected>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        lock.lock()
        collected.status = Int(head.status.code)
        collected.headers = head.headers.map { HTTPHeader($0.name, $0.value) }
        lock.unlock()
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Collected>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        lock.lock()
        defer { lock.unlock() }
        guard collected.body.count + buffer.readableBytes <= maximumBytes else {
            return task.eventLoop.makeFailedFuture(ResponseTooLarge(limit: maximumBytes))
        }
        collected.body.append(contentsOf: buffer.readableBytesView)
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didFinishRequest(task: HTTPClient.Task<Collected>) throws -> Collected {
        lock.lock()
        defer { lock.unlock() }
        return collected
    }
}
