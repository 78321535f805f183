import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle
import SwitchyardHTTP
import TestWaiting

/// A merchant's webhook endpoint for tests: records every delivery with its raw body and headers, and
/// answers with the status the test chooses (by default 200).
final class WebhookReceiver: Sendable {
    struct Delivery: Sendable {
        var body: Data
        var headers: [String: String]
        var status: Int

        var eventId: String { headers["switchyard-event-id"] ?? "" }
        var type: String { headers["switchyard-event-type"] ?? "" }
        var json: [String: Any] { ((try? JSONSerialization.jsonObject(with: body)) as? [String: Any]) ?? [:] }

        /// Whether the signature holds for `secret` at `now`.
        func verifies(secret: String, now: Date = Date()) -> Bool {
            guard let header = headers["switchyard-signature"] else { return false }
            if case .success = WebhookSignature.verify(header: header, secret: secret, body: body, now: now) {
                return true
            }
            return false
        }
    }

    private struct State {
        var deliveries: [Delivery] = []
        var answers: [Int] = []
        var thenAnswer = 200
        /// Whether requests are recorded and then never answered (a black hole that accepts them).
        var hangs = false
        /// Whether the receiver is stopping: held requests are let go, so the server ends cleanly.
        var stopping = false
        /// How long each request waits before its answer.
        var delay: Duration?
    }

    private let state: LockedState<State>
    /// Told of every delivery and of the stop, so waits wake on the event.
    private let changes: Changes
    let url: String
    private let task: Task<Void, any Error>
    private let server: ServerStop

    private init(
        url: String, task: Task<Void, any Error>, server: ServerStop, state: LockedState<State>, changes: Changes
    ) {
        self.server = server
        self.url = url
        self.task = task
        self.state = state
        self.changes = changes
    }

    /// Starts a receiver on a free loopback port, runs `body`, stops it.
    static func with<T: Sendable>(_ body: (WebhookReceiver) async throws -> T) async throws -> T {
        let state = LockedState(State())
        let changes = Changes()
        let router = Router()
        router.post("hook") { request, _ -> Response in
            let buffer = try await request.body.collect(upTo: 1 << 20)
            var headers: [String: String] = [:]
            for field in request.headers { headers[field.name.canonicalName] = field.value }
            // HTTP/1's Host header arrives as the request's authority.
            if let authority = request.head.authority { headers["host"] = authority }
            let (status, hangs) = state.withLock { s -> (Int, Bool) in
                let status = s.answers.isEmpty ? s.thenAnswer : s.answers.removeFirst()
                s.deliveries.append(Delivery(body: Data(buffer: buffer), headers: headers, status: status))
                return (status, s.hangs)
            }
            changes.notify()
            if hangs {
                try? await changes.wait("the receiver's stop", within: .seconds(600)) {
                    state.withLock { $0.stopping }
                }
            }
            // A slow endpoint is the behaviour under test: the delay is the answer's latency, not a wait.
            if let delay = state.withLock({ $0.delay }) { try await Task.sleep(for: delay) }
            return Response(status: .init(code: status))
        }
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        var logger = Logger(label: "webhook-receiver")
        logger.logLevel = .critical
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in continuation.yield(channel.localAddress?.port ?? 0) }, logger: logger)
        let server = ServerStop(app)
        let task = Task { try await server.run() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { throw TestFailure("receiver did not start") }
        let receiver = WebhookReceiver(
            url: "http://127.0.0.1:\(port)/hook", task: task, server: server, state: state, changes: changes)
        let result: Result<T, any Error>
        do { result = .success(try await body(receiver)) } catch { result = .failure(error) }
        await receiver.stop()
        return try result.get()
    }

    /// Lets held requests go, stops the server and waits (at most 10 s) until it has ended, so that no
    /// connection of this receiver outlives it into the next test.
    private func stop() async {
        state.withLock { $0.stopping = true }
        changes.notify()
        await server.stop()
        task.cancel()
        let run = task
        _ = try? await Deadline.within(.seconds(10), "the receiver's end") { _ = await run.result }
    }

    /// Answers the next requests with `statuses`, then always with `then`.
    func answer(_ statuses: [Int], then: Int = 200) {
        state.withLock {
            $0.answers = statuses
            $0.thenAnswer = then
        }
    }

    /// Answers every request from now on only after `delay`.
    func answer(after delay: Duration) {
        state.withLock { $0.delay = delay }
    }

    /// Records every request from now on and never answers it.
    func hang() {
        state.withLock { $0.hangs = true }
    }

    /// Every delivery so far, oldest first.
    var deliveries: [Delivery] { state.withLock { $0.deliveries } }

    /// Waits until `condition` holds on the deliveries, or fails after `seconds`.
    @discardableResult
    func wait(seconds: Double = 15, until condition: @escaping @Sendable ([Delivery]) -> Bool) async throws
        -> [Delivery]
    {
        let satisfied = LockedState<[Delivery]?>(nil)
        do {
            try await changes.wait("webhook deliveries", within: .seconds(seconds)) { [self] in
                let now = deliveries
                guard condition(now) else { return false }
                satisfied.withLock { $0 = now }
                return true
            }
        } catch is WaitTimedOut {
            throw TestFailure("webhook deliveries did not arrive; have \(deliveries.count)")
        }
        return satisfied.withLock { $0 } ?? deliveries
    }
}

/// A value behind a lock.
final class LockedState<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
