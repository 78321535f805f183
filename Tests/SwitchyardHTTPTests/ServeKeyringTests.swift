import Foundation
import Logging
import SwitchyardCrypto
import SwitchyardStore
import SwitchyardTestSupport
import Testing

/// `serve` opens a stored secret with its keyring at start: a wrong key is refused at once, naming the
/// variable, the option and the key id it lacks; the old key configured as a previous one is accepted.
struct ServeKeyringTests {
    @Test func aKeyThatDoesNotOpenTheStoredSecretsIsRefusedAtStart() async throws {
        let database = try await TestPostgres.freshSwitchyardDatabase()
        let logger = Logger(label: "test")
        let (a, b) = (SecureRandom.bytes(32), SecureRandom.bytes(32))
        try await PGPool.scoped(connectionString: database.appURL, logger: logger) { pool in
            let store = PostgresStore(pool: pool, secrets: try SecretBox(key: a), clock: { Date() }, logger: logger)
            let tenant = try await store.createTenant(name: "A", actor: "test").id
            _ = try await store.createWebhookEndpoint(
                tenant: tenant, url: "https://merchant.example/hooks", description: nil, eventTypes: [],
                actor: "test", maxEnabled: 5)
        }
        let root = try EmbeddedDefaultTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try Data(#"{"plugins":{"mode":"pinned"}}"#.utf8).write(to: URL(fileURLWithPath: root + "/p.json"))
        func serve(_ environment: [String: String], log: String) throws -> ServeProcess {
            try ServeProcess(
                arguments: [
                    "--database-url", database.appURL, "--policy", root + "/p.json", "--data-dir", root + "/data",
                    "--port", "\(PostgresCluster.freePort())",
                ],
                directory: root, logName: log,
                environment: environment.merging(["SWITCHYARD_OPERATOR_TOKEN": "op_" + SecureRandom.token(bytes: 32)]) {
                    $1
                })
        }

        let wrong = try serve(["SWITCHYARD_KEK": Data(b).base64EncodedString()], log: "wrong.log")
        let status = try await wrong.exitStatus()
        try await wrong.stop()
        #expect(status != nil && status != 0)
        #expect(wrong.output.contains("does not open the secrets stored"), "\(wrong.output)")
        #expect(wrong.output.contains("SWITCHYARD_KEK") && wrong.output.contains("--kek-file"))
        #expect(wrong.output.contains(SecretBox.keyId(of: a)), "\(wrong.output)")
        #expect(!wrong.output.contains("switchyard listening"))

        let rotating = try serve(
            ["SWITCHYARD_KEK": Data(b).base64EncodedString(), "SWITCHYARD_KEK_PREVIOUS": Hex.encode(a)],
            log: "rotating.log")
        let deadline = Date().addingTimeInterval(60)
        while !rotating.output.contains("switchyard listening") && Date() < deadline && rotating.process.isRunning {
            try await Task.sleep(for: .milliseconds(100))
        }
        try await rotating.stop()
        #expect(rotating.output.contains("switchyard listening"), "\(rotating.output)")
    }
}
