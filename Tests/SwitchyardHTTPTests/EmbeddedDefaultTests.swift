import Foundation
import Logging
import PluginHost
import ProviderSandbox
import SwitchyardCluster
import SwitchyardCore
import SwitchyardCrypto
import SwitchyardStore
import TestWaiting
import Testing

/// `switchyard serve` as a person trying it runs it, and the checks it makes before serving.
@Suite(.serialized)
struct EmbeddedDefaultTests {
    static func temporaryDirectory() throws -> String {
        let directory = NSTemporaryDirectory() + "switchyard-embedded-" + UUID().uuidString.prefix(8).lowercased()
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory
    }

    static func mode(_ path: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue
    }

    @Test func theEmbeddedDefaultUsesTheSwitchyardDatabaseAndKeepsItsSecretsPrivate() async throws {
        let root = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let data = root + "/data"
        let kekFile = root + "/keys/kek"
        try FileManager.default.createDirectory(atPath: root + "/keys", withIntermediateDirectories: true)
        // No --policy: the embedded default writes its own development policy.
        let server = try ServeProcess(
            arguments: ["--data-dir", data, "--kek-file", kekFile, "--port", "\(PostgresCluster.freePort())"],
            directory: root)
        defer { if server.process.isRunning { kill(server.process.processIdentifier, SIGKILL) } }
        // The demo file the server writes once set up is its only word of being ready.
        try await Poll.holds("the demo file", within: .seconds(180), every: .milliseconds(200)) {
            FileManager.default.fileExists(atPath: data + "/demo.json") || !server.process.isRunning
        }
        try #require(FileManager.default.fileExists(atPath: data + "/demo.json"), "\(server.output)")
        // One demo account per registered emulator, recorded under the registration's key.
        let demo = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: data + "/demo.json")))
                as? [String: Any])
        for registration in SandboxRegistration.all {
            let key = try registration.demo(secrets: SandboxDemoSecrets { _, make in make() }).stateKey
            #expect((demo[key + "_account_id"] as? String).flatMap(UUID.init(uuidString:)) != nil, "\(key)")
        }

        // The key-encryption key is where it was asked to be, and nowhere in the data directory.
        #expect(!FileManager.default.fileExists(atPath: data + "/kek"))
        #expect(Self.mode(kekFile) == 0o600)
        for file in [
            "demo.json", "operator-token", "postgres.password", "postgres-owner.password", "postgres-app.password",
            "sandbox-citcon-private-key", "sandbox-antom-merchant-key.pem", "policy.json",
        ] {
            #expect(Self.mode(data + "/" + file) == 0o600, "\(file)")
        }

        // The generated development policy allows loopback receivers only there.
        let policyData = try #require(FileManager.default.contents(atPath: data + "/policy.json"))
        let policy = try JSONDecoder().decode(PlatformPolicy.self, from: policyData)
        #expect(policy.webhooks.requireHTTPS == false)
        let raw = try JSONSerialization.jsonObject(with: policyData) as? [String: Any]
        let webhooks = raw?["webhooks"] as? [String: Any]
        #expect(webhooks?["allow_hosts"] as? [String] == ["127.0.0.1", "localhost", "::1"])
        // No policy file given: the built-in development policy (the bundled ids only), said at startup.
        #expect(
            try PolicyFile.decode(policyData).plugins
                == PluginPolicy.builtInDevelopment(allowing: TestStack.bundledPluginIDs))
        #expect(server.output.contains("built-in development policy"), "\(server.output)")
        // The bundled plugins were scanned in scanner processes and are served.
        #expect(server.output.contains("plugin scanned"), "\(server.output)")

        // The tables are in database `switchyard`, owned by the owner role; `postgres` holds none.
        let pid = try String(contentsOfFile: data + "/postgres/postmaster.pid", encoding: .utf8)
        let port = try #require(pid.split(separator: "\n").dropFirst(3).first.map { String($0) })
        let password = try String(contentsOfFile: data + "/postgres.password", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        func lookup(_ database: String) async throws -> String? {
            let pool = try PGPool(
                PostgresConfiguration(
                    connectionString:
                        "host=127.0.0.1 port=\(port) user=postgres password='\(password)' dbname=\(database)",
                    poolSize: 1),
                logger: Logger(label: "test"))
            defer { Task { await pool.shutdown() } }
            return try await pool.withConnection { c in
                try await c.query(
                    "SELECT pg_get_userbyid(relowner) AS owner FROM pg_class WHERE oid = to_regclass('public.payments')"
                ).first?["owner"]
            }
        }
        #expect(try await lookup("switchyard") == DatabaseRoles.defaultOwner)
        #expect(try await lookup("postgres") == nil)
        try await server.stop()

        // Started again with another key, it refuses at once: that key does not open the demo's secrets.
        let wrongKey = try ServeProcess(
            arguments: ["--data-dir", data, "--kek-file", kekFile, "--port", "\(PostgresCluster.freePort())"],
            directory: root, logName: "wrong-key.log",
            environment: ["SWITCHYARD_KEK": Data(SecureRandom.bytes(32)).base64EncodedString()])
        let status = try await wrongKey.exitStatus()
        try await wrongKey.stop()
        #expect(status != nil && status != 0)
        #expect(wrongKey.output.contains("does not open the secrets stored"), "\(wrongKey.output)")
        #expect(wrongKey.output.contains("SWITCHYARD_KEK") && wrongKey.output.contains("--kek-file"))
    }

    /// A server with a database URL (never reached), a key and a policy file (nil: none), but the given
    /// operator token and environment; its exit status and output.
    static func startExternal(
        token: String?, policy: String? = #"{"plugins":{"mode":"development"}}"#,
        environment extra: [String: String] = [:]
    ) async throws -> (status: Int32?, output: String) {
        let root = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        if let policy {
            try Data(policy.utf8).write(to: URL(fileURLWithPath: root + "/p.json"))
        }
        var environment = ["SWITCHYARD_KEK": Data(SecureRandom.bytes(32)).base64EncodedString()]
        environment["SWITCHYARD_OPERATOR_TOKEN"] = token
        environment.merge(extra) { $1 }
        let server = try ServeProcess(
            arguments: [
                "--database-url", "host=127.0.0.1 port=1 dbname=switchyard connect_timeout=2", "--policy",
                root + "/p.json", "--data-dir", root + "/data", "--port", "\(PostgresCluster.freePort())",
                "--allow-development-plugins",
            ],
            directory: root, environment: environment)
        let status = try await server.exitStatus()
        try await server.stop()
        return (status, server.output)
    }

    @Test func aWeakOperatorTokenIsRefusedAtStartWithoutShowingIt() async throws {
        for token in [
            "REPLACE_WITH_A_LONG_RANDOM_TOKEN", "op_0123456789abcdef", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
        ] {
            let (status, output) = try await Self.startExternal(token: token)
            #expect(status != nil && status != 0)
            #expect(output.contains("SWITCHYARD_OPERATOR_TOKEN refused"), "\(output)")
            #expect(!output.contains(token))
        }
    }

    @Test func aServerWithADatabaseURLRefusesToStartWithoutAPolicyFile() async throws {
        let (status, output) = try await Self.startExternal(token: "op_" + SecureRandom.token(bytes: 32), policy: nil)
        #expect(status != nil && status != 0)
        #expect(output.contains("not found") && output.contains("only the embedded default"), "\(output)")
    }

    @Test func theShippedPolicyRequiresHTTPSForWebhooks() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("policy.json").path
        let policy = try JSONDecoder().decode(
            PlatformPolicy.self, from: try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(policy.webhooks.requireHTTPS)
    }
}
