import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import ProviderKit
import Synchronization

/// A provider stand-in on loopback for `switchyard plugins check`: it answers every request the way the
/// current script says (a response, a reset after the request, or no answer at all) and records what
/// it received.
final class StubProvider: Sendable {
    /// One request as the stub received it.
    struct Request: Sendable {
        var method: String
        var path: String
        var headers: [HTTPHeader]
        var body: Data
    }

    /// What the stub does with a request.
    enum Answer: Sendable {
        /// Answers with `status`, `headers` and `body`, after `delayMs`.
        case respond(status: Int, headers: [HTTPHeader], body: Data, delayMs: Int)
        /// Closes the connection once the request is read, without an answer.
        case reset
        /// Never answers (the connection stays open until the client gives up).
        case hang
    }

    private struct State {
        var answer: @Sendable (Request) -> Answer = { _ in .respond(status: 404, headers: [], body: Data(), delayMs: 0)
        }
        var requests: [Request] = []
        var waiters: [CheckedContinuation<Void, Never>] = []
        /// The call being watched ended (``releaseWaiters()``) since the last ``script(_:)``.
        var released = false
    }

    /// The stub's base URL, `http://127.0.0.1:<port>`.
    let baseURL: String
    private let channel: any Channel
    private let state: Mutex<State>
    private let box: StateBox

    private init(channel: any Channel, box: StateBox) {
        self.channel = channel
        self.state = Mutex(State())
        self.box = box
        baseURL = "http://127.0.0.1:\(channel.localAddress?.port ?? 0)"
    }

    /// Starts a stub on an ephemeral loopback port.
    static func start(on group: any EventLoopGroup) async throws -> StubProvider {
        let box = StateBox()
        let channel = try await ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 64)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                box.connections.withLock { $0.append(channel) }
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(StubHandler(stub: box))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        let stub = StubProvider(channel: channel, box: box)
        box.stub.withLock { $0 = stub }
        return stub
    }

    /// Answers every request from now on with `answer`, and forgets the requests received so far.
    func script(_ answer: @escaping @Sendable (Request) -> Answer) {
        state.withLock {
            $0.answer = answer
            $0.requests = []
            $0.released = false
        }
    }

    /// The requests received since the last ``script(_:)``.
    var requests: [Request] { state.withLock { $0.requests } }

    /// Returns once a request has arrived since the last ``script(_:)``, or the call being watched ended
    /// (``releaseWaiters()``, before or after this is called).
    func firstRequest() async {
        await withCheckedContinuation { (waiting: CheckedContinuation<Void, Never>) in
            let arrived = state.withLock { state -> Bool in
                if !state.requests.isEmpty || state.released { return true }
                state.waiters.append(waiting)
                return false
            }
            if arrived { waiting.resume() }
        }
    }

    /// Wakes whoever waits for a request, now and until the next ``script(_:)`` (the call ended).
    func releaseWaiters() {
        let waiting = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.released = true
            defer { state.waiters = [] }
            return state.waiters
        }
        waiting.forEach { $0.resume() }
    }

    /// Closes every connection still open (a request left hanging ends for its client).
    func closeConnections() async {
        let open = box.connections.withLock { connections -> [any Channel] in
            defer { connections = [] }
            return connections
        }
        for connection in open { try? await connection.close() }
    }

    /// Stops listening.
    func stop() async {
        releaseWaiters()
        try? await channel.close()
    }

    fileprivate func received(_ request: Request) -> Answer {
        let (answer, waiting) = state.withLock { state -> (Answer, [CheckedContinuation<Void, Never>]) in
            state.requests.append(request)
            defer { state.waiters = [] }
            return (state.answer(request), state.waiters)
        }
        waiting.forEach { $0.resume() }
        return answer
    }
}

/// The stub, reachable from handlers created before it existed.
private final class StateBox: Sendable {
    let stub = Mutex<StubProvider?>(nil)
    let connections = Mutex<[any Channel]>([])
}

/// Reads one request at a time and answers it as the stub's script says.
private final class StubHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let stub: StateBox
    private var head: HTTPRequestHead?
    private var body = Data()

    init(stub: StateBox) {
        self.stub = stub
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            body = Data()
        case .body(let buffer):
            body.append(contentsOf: buffer.readableBytesView)
        case .end:
            guard let head, let stub = stub.stub.withLock({ $0 }) else { return }
            let path = String(head.uri.split(separator: "?", maxSplits: 1).first ?? "")
            let request = StubProvider.Request(
                method: head.method.rawValue, path: path, headers: head.headers.map { HTTPHeader($0.name, $0.value) },
                body: body)
            self.head = nil
            switch stub.received(request) {
            case .reset:
                context.close(promise: nil)
            case .hang:
                break
            case .respond(let status, let headers, let body, let delayMs):
                let loop = context.eventLoop.assumeIsolated()
                if delayMs > 0 {
                    loop.scheduleTask(in: .milliseconds(Int64(delayMs))) {
                        Self.respond(context, status: status, headers: headers, body: body)
                    }
                } else {
                    Self.respond(context, status: status, headers: headers, body: body)
                }
            }
        }
    }

    private static func respond(_ context: ChannelHandlerContext, status: Int, headers: [HTTPHeader], body: Data) {
        var fields = HTTPHeaders(headers.map { ($0.name, $0.value) })
        fields.replaceOrAdd(name: "content-length", value: "\(body.count)")
        fields.replaceOrAdd(name: "connection", value: "close")
        let head = HTTPResponseHead(version: .http1_1, status: HTTPResponseStatus(statusCode: status), headers: fields)
        context.write(NIOAny(HTTPServerResponsePart.head(head)), promise: nil)
        context.write(NIOAny(HTTPServerResponsePart.body(.byteBuffer(ByteBuffer(bytes: body)))), promise: nil)
        context.writeAndFlush(NIOAny(HTTPServerResponsePart.end(nil))).assumeIsolated().whenComplete { _ in
            context.close(promise: nil)
        }
    }
}
