import Foundation
import SwitchyardBench
import SwitchyardCluster
import SwitchyardCommands
import SwitchyardStore

/// The embedded default started for a bench run: `switchyard serve` in a child process of this
/// executable (so its CPU and memory can be read from `/proc/<pid>`), in a data directory of its own,
/// with a policy whose tenant rate limits do not cap the load. The provider sandboxes run in a process of
/// their own (`switchyard sandbox --demo-data-dir`), so the server's CPU is the server's alone, unless
/// `inProcessSandbox` keeps them inside the server as `switchyard serve` alone does.
final class BenchServer {
    let process: Process
    /// The sandboxes' own process; nil when they run inside the server.
    let sandbox: Process?
    let dataDirectory: String
    let port: Int
    let log: String

    /// The bench's policy: the development policy with tenant and per-address connection limits far above
    /// what the sweep sends. With `pluginsInProcess`, every plugin runs inside the server (`"isolation":
    /// "in_process"`) instead of in a worker process, to measure what the worker crossings cost.
    static func policy(pluginsInProcess: Bool = false) throws -> String {
        var object =
            (try JSONSerialization.jsonObject(with: Data(DevelopmentPolicy.text.utf8)) as? [String: Any]) ?? [:]
        if pluginsInProcess, var plugins = object["plugins"] as? [String: Any],
            let allowed = plugins["allowed"] as? [[String: Any]]
        {
            plugins["allowed"] = allowed.map { entry in entry.merging(["isolation": "in_process"]) { $1 } }
            object["plugins"] = plugins
        }
        object["tenants"] = ["requests_per_second": 1_000_000, "burst": 1_000_000, "max_concurrent_requests": 10_000]
        // Every bench connection comes from one address: let it hold as many as the largest concurrency.
        object["server"] = ["max_connections_per_address": 2_048]
        let data = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// Starts the server in `dataDirectory` and waits (at most `timeout` seconds) until it answers.
    init(
        dataDirectory: String, inProcessSandbox: Bool = false, pluginsInProcess: Bool = false, timeout: Double = 180
    ) async throws {
        self.dataDirectory = dataDirectory
        try StateFile.makePrivateDirectory(dataDirectory)
        let policyPath = dataDirectory + "/bench-policy.json"
        try StateFile.write(try Self.policy(pluginsInProcess: pluginsInProcess), to: policyPath)
        port = PostgresCluster.freePort()
        log = dataDirectory + "/serve.log"
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        var arguments = ["serve", "--data-dir", dataDirectory, "--port", "\(port)", "--policy", policyPath]
        if inProcessSandbox {
            sandbox = nil
            arguments += ["--sandbox-port", "\(PostgresCluster.freePort())"]
        } else {
            let (started, sandboxPort) = try await Self.startSandbox(dataDirectory: dataDirectory, output: handle)
            sandbox = started
            arguments += ["--sandbox-url", "http://127.0.0.1:\(sandboxPort)"]
        }
        let process = Self.childProcess(arguments, output: handle)
        do {
            try process.run()
        } catch {
            Self.stop(sandbox)
            throw error
        }
        self.process = process
        do {
            try await waitUntilReady(timeout: timeout)
        } catch {
            stop()
            throw error
        }
    }

    var url: String { "http://127.0.0.1:\(port)" }
    var pid: Int32 { process.processIdentifier }
    /// The sandboxes' process id, when they run in a process of their own.
    var sandboxPid: Int32? { sandbox?.processIdentifier }

    /// `switchyard <arguments>` with the bench's environment (never a deployment's secrets) and `output`.
    private static func childProcess(_ arguments: [String], output: FileHandle) -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandSupport.executableDirectory() + "/switchyard")
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        for name in ["SWITCHYARD_DATABASE_URL", "SWITCHYARD_KEK", "SWITCHYARD_OPERATOR_TOKEN"] {
            environment[name] = nil
        }
        process.environment = environment
        process.standardOutput = output
        process.standardError = output
        return process
    }

    /// Starts `switchyard sandbox` with the demo merchants of `dataDirectory` and waits (at most 60 s) for
    /// its port.
    private static func startSandbox(dataDirectory: String, output: FileHandle) async throws -> (Process, Int) {
        let portFile = dataDirectory + "/sandbox.port"
        try? FileManager.default.removeItem(atPath: portFile)
        let process = childProcess(
            ["sandbox", "--port", "0", "--port-file", portFile, "--demo-data-dir", dataDirectory], output: output)
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            if let text = try? String(contentsOfFile: portFile, encoding: .utf8),
                let port = Int(text.trimmingCharacters(in: .whitespacesAndNewlines))
            {
                return (process, port)
            }
            guard process.isRunning else {
                throw BenchFailure("the sandbox exited (status \(process.terminationStatus))")
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        stop(process)
        throw BenchFailure("the sandbox did not listen within 60 s")
    }

    /// The demo tenant's state the server wrote.
    func demo() throws -> DemoState {
        let data = try Data(contentsOf: URL(fileURLWithPath: dataDirectory + "/demo.json"))
        return try JSONDecoder().decode(DemoState.self, from: data)
    }

    /// What the bench needs to reach the API, the sandbox and its demo merchants.
    func target() throws -> BenchTarget {
        try Self.target(demoDirectory: dataDirectory, serverURL: url)
    }

    /// The target described by a data directory's `demo.json` (and its Antom merchant key).
    static func target(demoDirectory: String, serverURL: String?) throws -> BenchTarget {
        let data = try Data(contentsOf: URL(fileURLWithPath: demoDirectory + "/demo.json"))
        let demo = try JSONDecoder().decode(DemoState.self, from: data)
        return BenchTarget(
            serverURL: serverURL ?? demo.serverURL, apiKey: demo.apiKey, sandboxURL: demo.sandboxURL,
            citconPrivateKey: demo.citconPrivateKey, antomClientId: demo.antomClientId,
            antomMerchantKey: try? String(
                contentsOfFile: demoDirectory + "/sandbox-antom-merchant-key.pem", encoding: .utf8),
            worldlineSecretAPIKey: try? String(
                contentsOfFile: demoDirectory + "/sandbox-worldline-secret-api-key", encoding: .utf8
            ).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// The superuser's connection string to a database of the private cluster (port from `postmaster.pid`).
    func clusterConnection(database: String) throws -> String {
        let pidFile = try String(contentsOfFile: dataDirectory + "/postgres/postmaster.pid", encoding: .utf8)
        let lines = pidFile.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count > 3, let port = Int(lines[3].trimmingCharacters(in: .whitespaces)) else {
            throw BenchFailure("cannot read the private cluster's port from postmaster.pid")
        }
        let password = try String(contentsOfFile: dataDirectory + "/postgres.password", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return "host=127.0.0.1 port=\(port) user=postgres password='\(password)' dbname=\(database)"
    }

    private func waitUntilReady(timeout: Double) async throws {
        let deadline = Date().addingTimeInterval(timeout)
        let http = BenchHTTP(connections: 1)
        defer { Task { await http.shutdown() } }
        while Date() < deadline {
            guard process.isRunning else {
                throw BenchFailure("the server exited (status \(process.terminationStatus)); see \(log)")
            }
            if FileManager.default.fileExists(atPath: dataDirectory + "/demo.json"),
                await http.send(.GET, url + "/health").status == 200
            {
                return
            }
            try await Task.sleep(for: .milliseconds(250))
        }
        throw BenchFailure("the server did not answer within \(Int(timeout)) s; see \(log)")
    }

    /// Stops the server, then its sandboxes (SIGTERM, then SIGKILL after 60 s each).
    func stop() {
        Self.stop(process)
        Self.stop(sandbox)
    }

    private static func stop(_ process: Process?) {
        guard let process, process.isRunning else { return }
        process.terminate()
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning && Date() < deadline { usleep(100_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}
