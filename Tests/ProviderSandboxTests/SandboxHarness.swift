import AsyncHTTPClient
import Foundation
import Hummingbird
import Logging
import NIOCore
import ProviderSandbox
import TestWaiting

/// A sandbox server running on a free loopback port for the duration of one test.
struct SandboxHarness {
    let server: SandboxServer
    let baseURL: String
    let clock: TestClock

    var citcon: CitconTestClient { CitconTestClient(baseURL: baseURL + "/citcon") }
    var adminURL: String { baseURL + "/_sandbox/citcon" }
}

/// Merchants every test server knows.
enum TestMerchants {
    static let m1 = CitconSandboxMerchant(id: "m1", privateKey: "pk_test_m1", ipnSecret: "ipn-secret-m1")
    static let m2 = CitconSandboxMerchant(id: "m2", privateKey: "pk_test_m2", ipnSecret: "ipn-secret-m2")
}

/// A clock the test moves by hand.
final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date

    init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        self.current = start
    }

    var now: Date { lock.withLock { current } }

    func advance(by seconds: TimeInterval) {
        lock.withLock { current = current.addingTimeInterval(seconds) }
    }
}

let quietLogger = Logger(label: "sandbox-test", factory: { _ in SwiftLogNoOpLogHandler() })

/// Runs `body` against a fresh sandbox server bound to port 0, then stops the server.
func withSandbox(
    ipnEncoding: CitconIPNEncoding = .form,
    _ body: (SandboxHarness) async throws -> Void
) async throws {
    let clock = TestClock()
    var configuration = SandboxConfiguration(
        notificationRetry: SandboxNotificationRetryPolicy(
            maxAttempts: 4,
            initialDelay: .milliseconds(50),
            maxDelay: .milliseconds(200),
            attemptTimeout: .seconds(2)
        ),
        clock: { clock.now }
    )
    configuration.citcon = CitconSandboxConfiguration(
        merchants: [TestMerchants.m1, TestMerchants.m2], ipnEncoding: ipnEncoding)
    let server = SandboxServer(configuration: configuration, logger: quietLogger)
    try await whileServing(server) { port in
        try await body(SandboxHarness(server: server, baseURL: "http://127.0.0.1:\(port)", clock: clock))
    }
}

/// Runs `serve` until `body` returns; `ports` yields the port it bound (a value of 0 or none: it did not start).
func whileServing(
    ports: AsyncStream<Int>, _ serve: @escaping @Sendable () async throws -> Void,
    _ body: (_ port: Int) async throws -> Void
) async throws {
    try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await serve() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next(), port > 0 else {
            group.cancelAll()
            throw HarnessError.serverDidNotStart
        }
        do {
            try await body(port)
        } catch {
            group.cancelAll()
            throw error
        }
        group.cancelAll()
    }
}

/// Runs `server` on a free loopback port until `body` returns.
func whileServing(_ server: SandboxServer, _ body: (_ port: Int) async throws -> Void) async throws {
    let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
    try await whileServing(
        ports: ports,
        {
            try await server.run(port: 0) { port in
                continuation.yield(port)
                continuation.finish()
            }
        }, body)
}

/// Runs a loopback HTTP receiver answering with `router` until `body` returns.
func whileReceiving(_ router: Router<BasicRequestContext>, _ body: (_ port: Int) async throws -> Void) async throws {
    let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
    let app = Application(
        router: router,
        configuration: .init(address: .hostname("127.0.0.1", port: 0)),
        onServerRunning: { channel in
            continuation.yield(channel.localAddress?.port ?? 0)
            continuation.finish()
        },
        logger: quietLogger)
    try await whileServing(ports: ports, { try await app.run() }, body)
}

enum HarnessError: Error {
    case serverDidNotStart
    case timedOut(String)
}

/// Polls `condition` until it holds or `timeout` passes.
func eventually(
    _ what: String,
    timeout: Duration = .seconds(5),
    _ condition: () async throws -> Bool
) async throws {
    do {
        try await Poll.until(what, within: timeout, every: .milliseconds(20), condition)
    } catch is WaitTimedOut {
        throw HarnessError.timedOut(what)
    }
}

// MARK: - HTTP

/// An HTTP answer with its body parsed as JSON when possible.
struct Reply: @unchecked Sendable {
    let status: Int
    let body: [UInt8]
    let json: Any?

    var object: [String: Any] { json as? [String: Any] ?? [:] }
    /// `data` of a Citcon envelope.
    var data: [String: Any] { object["data"] as? [String: Any] ?? [:] }
    /// Citcon error code of a failure envelope.
    var code: String? { data["code"] as? String }
    var envelopeStatus: String? { object["status"] as? String }

    func string(_ key: String) -> String? { data[key] as? String }
    func int(_ key: String) -> Int64? { (data[key] as? NSNumber)?.int64Value }
}

enum Method {
    case get, post, delete
}

/// Sends one request with the shared client.
func send(
    _ method: Method,
    _ url: String,
    bearer: String? = nil,
    json: Any? = nil,
    timeout: TimeAmount = .seconds(10)
) async throws -> Reply {
    var request = HTTPClientRequest(url: url)
    switch method {
    case .get: request.method = .GET
    case .post: request.method = .POST
    case .delete: request.method = .DELETE
    }
    if let bearer { request.headers.add(name: "Authorization", value: "Bearer \(bearer)") }
    if let json {
        request.headers.add(name: "Content-Type", value: "application/json")
        let data = try JSONSerialization.data(withJSONObject: json)
        request.body = .bytes(ByteBuffer(bytes: Array(data)))
    }
    let response = try await HTTPClient.shared.execute(request, timeout: timeout)
    let buffer = try await response.body.collect(upTo: 1 << 20)
    let bytes = Array(buffer.readableBytesView)
    let parsed = try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
    return Reply(status: Int(response.status.code), body: bytes, json: parsed)
}
