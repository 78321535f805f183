import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import SwitchyardCluster
import SwitchyardCrypto
import SwitchyardStore
import SwitchyardTestSupport
import TestWaiting

/// A deployment for chaos runs, every part a process of its own: a standalone `switchyard sandbox`, one
/// throwaway database and several `switchyard serve` replicas on it, which a test may kill and restart.
final class ChaosPlatform: Sendable {
    /// A reply from a replica or the sandbox.
    struct Reply: Sendable {
        var status: Int
        var body: Data

        var json: [String: Any] { ((try? JSONSerialization.jsonObject(with: body)) as? [String: Any]) ?? [:] }
        var errorCode: String? { (json["error"] as? [String: Any])?["code"] as? String }
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    let directory: String
    let sandboxURL: String
    let operatorToken: String
    let client: HTTPClient
    /// The database every replica runs on.
    let databaseURL: String
    /// The replicas' ports, fixed for the run: a restarted replica listens where it did before.
    let ports: [Int]
    private let sandbox: Process
    private let servers: LockedState<[ServeProcess]>
    private let arguments: @Sendable (Int) -> [String]
    private let environment: [String: String]

    private init(
        directory: String, sandboxURL: String, operatorToken: String, sandbox: Process, ports: [Int],
        databaseURL: String, arguments: @escaping @Sendable (Int) -> [String], environment: [String: String]
    ) {
        self.directory = directory
        self.databaseURL = databaseURL
        self.sandboxURL = sandboxURL
        self.operatorToken = operatorToken
        self.sandbox = sandbox
        self.ports = ports
        self.arguments = arguments
        self.environment = environment
        self.servers = LockedState([])
        self.client = HTTPClient(eventLoopGroupProvider: .singleton)
    }

    /// Starts the sandbox (Citcon charges expire after `citconChargeLifetime` seconds), a fresh database
    /// and `replicas` servers reading `policy`, and waits until every server is ready.
    /// Starts the platform, once more from scratch (new directory, database and ports) if the first start
    /// fails: a port picked free can be taken by another process before the replica binds it.
    /// With `databaseURL`, the replicas use that (migrated) database instead of a fresh one.
    static func start(replicas: Int, citconChargeLifetime: Int, policy: String, databaseURL: String? = nil)
        async throws -> ChaosPlatform
    {
        do {
            return try await startOnce(
                replicas: replicas, citconChargeLifetime: citconChargeLifetime, policy: policy,
                databaseURL: databaseURL)
        } catch {
            print("chaos platform did not start (\(error)); starting again")
            return try await startOnce(
                replicas: replicas, citconChargeLifetime: citconChargeLifetime, policy: policy,
                databaseURL: databaseURL)
        }
    }

    private static func startOnce(replicas: Int, citconChargeLifetime: Int, policy: String, databaseURL: String?)
        async throws -> ChaosPlatform
    {
        let directory = NSTemporaryDirectory() + "switchyard-chaos-" + UUID().uuidString.prefix(8).lowercased()
        try FileManager.default.createDirectory(atPath: directory + "/plugins", withIntermediateDirectories: true)
        for library in TestStack.pluginLibraries {
            try FileManager.default.copyItem(
                atPath: try TestStack.pluginPath(library), toPath: directory + "/plugins/" + library)
        }
        let sandbox = try startSandbox(directory: directory, citconChargeLifetime: citconChargeLifetime)
        let sandboxPort = try await waitForPortFile(directory + "/sandbox.port", process: sandbox)

        let appURL: String
        if let databaseURL {
            appURL = databaseURL
        } else {
            appURL = try await TestPostgres.freshSwitchyardDatabase().appURL
        }
        try Data(policy.utf8).write(to: URL(fileURLWithPath: directory + "/policy.json"))
        let operatorToken = "op_" + SecureRandom.token(bytes: 32)
        // Distinct ports, none the sandbox's: a port just freed may be handed out again at once.
        var ports: [Int] = []
        while ports.count < replicas {
            let port = PostgresCluster.freePort()
            if port != sandboxPort && !ports.contains(port) { ports.append(port) }
        }
        let platform = ChaosPlatform(
            directory: directory, sandboxURL: "http://127.0.0.1:\(sandboxPort)", operatorToken: operatorToken,
            sandbox: sandbox, ports: ports, databaseURL: appURL,
            arguments: { port in
                [
                    "--database-url", appURL, "--no-migrate", "--allow-development-plugins", "--port",
                    "\(port)", "--plugins-dir", directory + "/plugins", "--policy", directory + "/policy.json",
                    "--data-dir", directory + "/data-\(port)",
                ]
            },
            environment: [
                "SWITCHYARD_KEK": Data(SecureRandom.bytes(32)).base64EncodedString(),
                "SWITCHYARD_OPERATOR_TOKEN": operatorToken, "LOG_LEVEL": "warning",
            ])
        do {
            for index in ports.indices { try platform.launch(index, generation: 0) }
            for index in ports.indices { try await platform.waitUntilReady(index) }
        } catch {
            await platform.stop()
            throw error
        }
        return platform
    }

    private static func startSandbox(directory: String, citconChargeLifetime: Int) throws -> Process {
        let antomKey = directory + "/antom-merchant.pem"
        try Data(TestStack.antomMerchantKey.publicKey.pem.utf8).write(to: URL(fileURLWithPath: antomKey))
        let citcon = TestStack.citconMerchant
        let log = directory + "/sandbox.log"
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TestStack.buildDirectory + "/switchyard")
        process.arguments = [
            "sandbox", "--port", "0", "--port-file", directory + "/sandbox.port", "--citcon-merchant",
            "\(citcon.id):\(citcon.privateKey):\(citcon.ipnSecret)", "--antom-merchant",
            "\(TestStack.antomClientId):\(antomKey)", "--citcon-charge-lifetime", "\(citconChargeLifetime)",
        ]
        var environment = ProcessInfo.processInfo.environment
        environment["LOG_LEVEL"] = "warning"
        process.environment = environment
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        return process
    }

    private static func waitForPortFile(_ path: String, process: Process) async throws -> Int {
        // Another process writes the file: asked again until it is there or the process has exited.
        let port = try? await Poll.value("the sandbox's port file", within: .seconds(60), every: .milliseconds(100)) {
            () -> Int?? in
            if let text = try? String(contentsOfFile: path, encoding: .utf8),
                let port = Int(text.trimmingCharacters(in: .whitespacesAndNewlines))
            {
                return .some(port)
            }
            return process.isRunning ? nil : .some(nil)
        }
        guard let port else { throw TestFailure("the sandbox did not start; see \(path)") }
        return port
    }

    // MARK: Replicas

    /// The base URL of replica `index` (modulo the number of replicas).
    func replicaURL(_ index: Int) -> String { "http://127.0.0.1:\(ports[index % ports.count])" }

    private func launch(_ index: Int, generation: Int) throws {
        let port = ports[index]
        let server = try ServeProcess(
            arguments: arguments(port), directory: directory, logName: "replica-\(index)-\(generation).log",
            environment: environment)
        servers.withLock { list in
            if index < list.count { list[index] = server } else { list.append(server) }
        }
    }

    /// Waits until replica `index` answers `/ready` (database and plugins loaded).
    func waitUntilReady(_ index: Int) async throws {
        let server = servers.withLock { $0[index] }
        // Another process's readiness, read over HTTP: asked again until it answers or has exited.
        let ready = try? await Poll.value("replica \(index) ready", within: .seconds(120), every: .milliseconds(200)) {
            () -> Bool? in
            if let reply = try? await send(.GET, replicaURL(index) + "/ready", timeout: 2), reply.status == 200 {
                return true
            }
            return server.process.isRunning ? nil : false
        }
        if ready == true { return }
        throw TestFailure("replica \(index) is not ready: \(server.output.suffix(2000))")
    }

    /// Kills replica `index` with SIGKILL (no shutdown of any kind) and waits until it is gone.
    func sigkill(_ index: Int) {
        let server = servers.withLock { $0[index] }
        kill(server.process.processIdentifier, SIGKILL)
        server.process.waitUntilExit()
    }

    /// Sends SIGTERM to replica `index` (a graceful shutdown) and waits, at most `seconds`, until it has
    /// exited; its exit status, or nil while it still runs.
    func sigterm(_ index: Int, within seconds: Double) async throws -> Int32? {
        let server = servers.withLock { $0[index] }
        kill(server.process.processIdentifier, SIGTERM)
        return try await server.exitStatus(within: seconds)
    }

    /// Starts replica `index` again on its port and waits until it is ready.
    func restart(_ index: Int, generation: Int) async throws {
        try launch(index, generation: generation)
        try await waitUntilReady(index)
    }

    /// Stops every process and the HTTP client; the directory (logs) is removed only when `keepLogs` is false.
    func stop(keepLogs: Bool = true) async {
        for server in servers.withLock({ $0 }) { try? await server.stop() }
        if sandbox.isRunning { sandbox.terminate() }
        sandbox.waitUntilExit()
        try? await client.shutdown()
        if !keepLogs { try? FileManager.default.removeItem(atPath: directory) }
    }

    /// The `Idempotency-Key`s still in progress (claimed, never answered), as stored.
    func keysInProgress() async throws -> [String] {
        let pool = try PGPool(
            PostgresConfiguration(connectionString: databaseURL, poolSize: 1), logger: Logger(label: "chaos"))
        defer { Task { await pool.shutdown() } }
        return try await pool.withConnection { c in
            try await c.query("SELECT key FROM idempotency_keys WHERE completed_at IS NULL").rows.map {
                try $0.string("key")
            }
        }
    }

    // MARK: HTTP

    /// Sends a request; `body` is sent as is (JSON), so a retry repeats exactly the same bytes.
    func send(
        _ method: HTTPMethod, _ url: String, token: String? = nil, body: Data? = nil, headers: [String: String] = [:],
        timeout: Int64 = 10
    ) async throws -> Reply {
        var request = HTTPClientRequest(url: url)
        request.method = method
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(data: body))
        }
        let response = try await client.execute(request, timeout: .seconds(timeout))
        let collected = try await response.body.collect(upTo: 16 << 20)
        return Reply(status: Int(response.status.code), body: Data(buffer: collected))
    }

    /// Sends `json` as the body.
    func send(_ method: HTTPMethod, _ url: String, token: String? = nil, json: Any) async throws -> Reply {
        try await send(method, url, token: token, body: try JSONSerialization.data(withJSONObject: json))
    }

    /// An operator call on the first replica that answers; requires `expected`.
    func admin(_ method: HTTPMethod, _ path: String, json: Any, expected: Int) async throws -> [String: Any] {
        let reply = try await send(method, replicaURL(0) + path, token: operatorToken, json: json)
        guard reply.status == expected else { throw TestFailure("\(method) \(path): \(reply.status) \(reply.text)") }
        return reply.json
    }
}
