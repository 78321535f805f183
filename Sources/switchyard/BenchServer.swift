import Foundation
import SwitchyardStore

/// The embedded default started for a bench run: `switchyard serve` in a child process of this
/// executable (so its CPU and memory can be read from `/proc/<pid>`), in a data directory of its own,
/// with a policy whose tenant rate limits do not cap the load.
final class BenchServer {
    let process: Process
    let dataDirectory: String
    let port: Int
    let log: String

    /// The bench's policy: the development policy with tenant limits far above what the sweep sends.
    static func policy() throws -> String {
        var object =
            (try JSONSerialization.jsonObject(with: Data(DevelopmentPolicy.text.utf8)) as? [String: Any]) ?? [:]
        object["tenants"] = ["requests_per_second": 1_000_000, "burst": 1_000_000, "max_concurrent_requests": 10_000]
        let data = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// Starts the server in `dataDirectory` and waits (at most `timeout` seconds) until it answers.
    init(dataDirectory: String, timeout: Double = 180) async throws {
        self.dataDirectory = dataDirectory
        try StateFile.makePrivateDirectory(dataDirectory)
        let policyPath = dataDirectory + "/bench-policy.json"
        try StateFile.write(try Self.policy(), to: policyPath)
        port = PostgresCluster.freePort()
        log = dataDirectory + "/serve.log"
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandSupport.executableDirectory() + "/switchyard")
        process.arguments = [
            "serve", "--data-dir", dataDirectory, "--port", "\(port)", "--policy", policyPath,
            "--sandbox-port", "\(PostgresCluster.freePort())",
        ]
        var environment = ProcessInfo.processInfo.environment
        for name in ["SWITCHYARD_DATABASE_URL", "SWITCHYARD_KEK", "SWITCHYARD_OPERATOR_TOKEN"] {
            environment[name] = nil
        }
        process.environment = environment
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        self.process = process
        try await waitUntilReady(timeout: timeout)
    }

    var url: String { "http://127.0.0.1:\(port)" }
    var pid: Int32 { process.processIdentifier }

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
                contentsOfFile: demoDirectory + "/sandbox-antom-merchant-key.pem", encoding: .utf8))
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

    /// Stops the server (SIGTERM, then SIGKILL after 60 s).
    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning && Date() < deadline { usleep(100_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}
