import AsyncHTTPClient
import Foundation
import Hummingbird
import Logging
import NIOCore
import NIOHTTP1
import PluginHost
import ProviderSandbox
import SwitchyardApp
import SwitchyardCluster
import SwitchyardCore
import SwitchyardCrypto
import SwitchyardHTTP
import SwitchyardStore
import SwitchyardTestSupport
import TestWaiting
import Testing

/// A whole Switchyard for a test: a fresh database, the sandbox, the dlopen-loaded plugins and the HTTP
/// server, each on a free loopback port.
struct TestStack: Sendable {
    let baseURL: String
    let sandboxURL: String
    let sandbox: SandboxServer
    let runtime: SwitchyardRuntime
    let client: HTTPClient
    let operatorToken: String
    let pluginsDirectory: String
    /// The test database as its owner sees it (for tests that change grants).
    let ownerURL: String
    /// The test database as the cluster's superuser sees it (for tests that cut the server off).
    let adminURL: String
    /// The test database as the server sees it (for tests that set up rows the API cannot make).
    let databaseURL: String
    /// The plugin libraries the stack installs: those of every registered provider emulator.
    static let pluginLibraries = SandboxRegistration.all.map(\.pluginLibrary)
    /// The ids of the bundled plugins (the built-in development policy allows these).
    static let bundledPluginIDs = SandboxRegistration.all.map(\.pluginID)

    /// The directory the test binary was built into, where `swift build` put the plugin `.so` files.
    static var buildDirectory: String { BuiltProducts.directory }

    /// The path of a plugin library built beside the tests.
    static func pluginPath(_ library: String) throws -> String {
        let path = buildDirectory + "/" + library
        guard FileManager.default.fileExists(atPath: path) else {
            throw TestFailure("\(library) not found beside the tests: run `swift build` before `swift test`")
        }
        return path
    }

    /// Starts everything, runs `body`, and stops everything.
    static func with(
        providerTimeoutMs: Int = 5_000, installPlugins: Bool = true,
        pluginPolicy: PluginPolicy = PluginPolicy(mode: .development, allowsAnyID: true),
        extraPlugins: [(name: String, path: String)] = [],
        policy configure: @Sendable (inout PlatformPolicy) -> Void = { _ in }, policyPath: String? = nil,
        clock: TestClock = TestClock(),
        log: RecordedLog? = nil,
        _ body: @Sendable (TestStack) async throws -> Void
    ) async throws {
        var logger = log?.logger ?? Logger(label: "test")
        logger.logLevel =
            ProcessInfo.processInfo.environment["TEST_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:))
            ?? (log == nil ? .warning : .info)
        let database = try await TestPostgres.freshSwitchyardDatabase()
        let databaseURL = database.appURL
        let pluginsDirectory = NSTemporaryDirectory() + "switchyard-test-plugins-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: pluginsDirectory, withIntermediateDirectories: true)
        if installPlugins {
            for library in pluginLibraries {
                try FileManager.default.copyItem(
                    atPath: try pluginPath(library), toPath: pluginsDirectory + "/" + library)
            }
        }
        for extra in extraPlugins {
            try FileManager.default.copyItem(atPath: extra.path, toPath: pluginsDirectory + "/" + extra.name)
        }
        let operatorToken = "op_" + SecureRandom.token(bytes: 16)
        var platform = PlatformPolicy()
        platform.limits.providerTimeoutMs = providerTimeoutMs
        // Test receivers listen on plain http on loopback, and deliveries should not wait long.
        platform.webhooks.requireHTTPS = false
        platform.webhooks.pollMs = 50
        configure(&platform)
        // Every registered emulator with its test merchants; the providers' time moves with the server's.
        var sandboxConfiguration = SandboxConfiguration(clock: { clock.now() })
        for registration in SandboxRegistration.all { registration.configureTestStack(&sandboxConfiguration) }
        let sandbox = SandboxServer(configuration: sandboxConfiguration, logger: logger)
        let client = HTTPClient(eventLoopGroupProvider: .singleton)

        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                let (sandboxPorts, sandboxContinuation) = AsyncStream<Int>.makeStream()
                let sandboxServer = ServerStop {
                    try await sandbox.run(host: "127.0.0.1", port: 0) { port in sandboxContinuation.yield(port) }
                }
                group.addTask {
                    defer { sandboxContinuation.finish() }
                    try await sandboxServer.run()
                }
                var iterator = sandboxPorts.makeAsyncIterator()
                guard let sandboxPort = await iterator.next() else { throw TestFailure("sandbox did not start") }

                let serverPort = PostgresCluster.freePort()
                var configuration = RuntimeConfiguration(
                    databaseURL: databaseURL, poolSize: 4, secrets: try SecretBox(key: SecureRandom.bytes(32)),
                    operatorToken: operatorToken, pluginsDirectory: pluginsDirectory,
                    pluginPolicy: pluginPolicy, platform: platform,
                    publicBaseURL: "http://127.0.0.1:\(serverPort)", pluginWatchInterval: .milliseconds(300),
                    clock: { clock.now() }, logger: logger, policyPath: policyPath)
                configuration.pluginExecutable = PluginExecutable(path: buildDirectory + "/switchyard")
                let runtime = try await SwitchyardRuntime(configuration)
                let (serverPorts, serverContinuation) = AsyncStream<Int>.makeStream()
                let app = SwitchyardServer.application(runtime.dependencies, host: "127.0.0.1", port: serverPort) {
                    port in
                    serverContinuation.yield(port)
                }
                let server = ServerStop(app)
                group.addTask {
                    defer { serverContinuation.finish() }
                    try await server.run()
                }
                group.addTask { await runtime.watchPlugins() }
                group.addTask { await runtime.runJanitor() }
                group.addTask { await runtime.runWebhooks() }
                group.addTask { await runtime.runBackgroundWork() }
                var serverIterator = serverPorts.makeAsyncIterator()
                guard let port = await serverIterator.next() else { throw TestFailure("server did not start") }
                let stack = TestStack(
                    baseURL: "http://127.0.0.1:\(port)", sandboxURL: "http://127.0.0.1:\(sandboxPort)",
                    sandbox: sandbox,
                    runtime: runtime, client: client, operatorToken: operatorToken, pluginsDirectory: pluginsDirectory,
                    ownerURL: database.ownerURL, adminURL: database.adminURL, databaseURL: databaseURL)
                let result: Result<Void, any Error>
                do {
                    try await body(stack)
                    result = .success(())
                } catch {
                    result = .failure(error)
                }
                await server.stop()
                await sandboxServer.stop()
                group.cancelAll()
                await runtime.shutdown()
                try result.get()
            }
        } catch {
            try? await client.shutdown()
            try? FileManager.default.removeItem(atPath: pluginsDirectory)
            throw error
        }
        try await client.shutdown()
        try? FileManager.default.removeItem(atPath: pluginsDirectory)
    }

    // MARK: HTTP

    struct Reply: Sendable {
        var status: Int
        var body: Data
        var headers: [(String, String)]

        var json: [String: Any] { ((try? JSONSerialization.jsonObject(with: body)) as? [String: Any]) ?? [:] }
        var errorCode: String? { (json["error"] as? [String: Any])?["code"] as? String }
    }

    func send(
        _ method: HTTPMethod, _ path: String, token: String? = nil, json: Any? = nil, raw: Data? = nil,
        headers: [String: String] = [:], base: String? = nil
    ) async throws -> Reply {
        var request = HTTPClientRequest(url: (base ?? baseURL) + path)
        request.method = method
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let json {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(data: try JSONSerialization.data(withJSONObject: json)))
        } else if let raw {
            request.body = .bytes(ByteBuffer(data: raw))
        }
        let response = try await client.execute(request, timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 8 << 20)
        return Reply(
            status: Int(response.status.code), body: Data(buffer: body),
            headers: response.headers.map { ($0.name, $0.value) })
    }

    // MARK: Setup through the admin API

    struct Merchant: Sendable {
        var tenantId: String
        var apiKey: String
        var accountId: String
    }

    /// Adds a provider account to a tenant; returns its id.
    func addAccount(tenantId: String, _ body: [String: Any]) async throws -> String {
        let created = try await send(
            .POST, "/admin/v1/tenants/\(tenantId)/provider-accounts", token: operatorToken, json: body)
        try #require(created.status == 201, "\(String(decoding: created.body, as: UTF8.self))")
        return try #require(created.json["id"] as? String)
    }

    /// A tenant with an API key, one provider account and one routing rule sending `match` to it.
    func merchant(name: String, account: [String: Any], match: [String: Any]) async throws -> Merchant {
        let tenant = try await send(.POST, "/admin/v1/tenants", token: operatorToken, json: ["name": name])
        try #require(tenant.status == 201)
        let tenantId = try #require(tenant.json["id"] as? String)
        let key = try await send(
            .POST, "/admin/v1/tenants/\(tenantId)/api-keys", token: operatorToken,
            json: ["name": "k", "scopes": ["payments", "admin"]])
        try #require(key.status == 201)
        let created = try await send(
            .POST, "/admin/v1/tenants/\(tenantId)/provider-accounts", token: operatorToken, json: account)
        try #require(created.status == 201, "\(String(decoding: created.body, as: UTF8.self))")
        let accountId = try #require(created.json["id"] as? String)
        let routing = try await send(
            .PUT, "/admin/v1/tenants/\(tenantId)/routing", token: operatorToken,
            json: ["rules": [["name": "main", "match": match, "accounts": [accountId]]]])
        try #require(routing.status == 200, "\(String(decoding: routing.body, as: UTF8.self))")
        return Merchant(tenantId: tenantId, apiKey: try #require(key.json["secret"] as? String), accountId: accountId)
    }

    /// Creates a payment and requires a 201.
    func createPayment(_ m: Merchant, _ body: [String: Any]) async throws -> [String: Any] {
        let reply = try await send(.POST, "/v1/payments", token: m.apiKey, json: body)
        try #require(reply.status == 201, "\(String(decoding: reply.body, as: UTF8.self))")
        return reply.json
    }

    /// Polls until `condition` holds on the payment, or fails after `seconds`.
    func waitForPayment(
        _ id: String, key: String, seconds: Double = 10, until condition: ([String: Any]) -> Bool
    ) async throws -> [String: Any] {
        var last: [String: Any] = [:]
        do {
            // The payment is the server's state, read over HTTP: no event reaches the test.
            return try await Poll.value("payment \(id)", within: .seconds(seconds), every: .milliseconds(100)) {
                last = try await send(.GET, "/v1/payments/\(id)", token: key).json
                return condition(last) ? last : nil
            }
        } catch is WaitTimedOut {
            let status = last["status"] ?? "-"
            throw TestFailure("payment \(id) did not reach the expected state; last status \(status)")
        }
    }
}

/// The server's clock in a test: real time plus an offset the test moves forward.
final class TestClock: Sendable {
    private let offset = LockedState<TimeInterval>(0)

    init() {}

    func now() -> Date { Date().addingTimeInterval(offset.withLock { $0 }) }

    /// Moves the server's time forward by `seconds`.
    func advance(by seconds: TimeInterval) { offset.withLock { $0 += seconds } }
}

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
