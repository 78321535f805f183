import Foundation
import Logging
import SwitchyardCluster
import SwitchyardCrypto
import SwitchyardStore
import SwitchyardTestSupport
import TestWaiting
import Testing

/// `serve` opens a stored secret with its keyring at start: a wrong key is refused at once, naming the
/// variable, the option and the key id it lacks; the old key configured as a previous one is accepted.
struct ServeKeyringTests {
    /// A fresh database whose one webhook endpoint's secret is sealed under `key`; its server's URL.
    static func databaseWithASecret(sealedBy key: [UInt8]) async throws -> String {
        let database = try await TestPostgres.freshSwitchyardDatabase()
        let logger = Logger(label: "test")
        try await PGPool.scoped(connectionString: database.appURL, logger: logger) { pool in
            let store = PostgresStore(pool: pool, secrets: try SecretBox(key: key), clock: { Date() }, logger: logger)
            let tenant = try await store.tenants.createTenant(name: "A", actor: "test").id
            _ = try await store.webhooks.createWebhookEndpoint(
                tenant: tenant, url: "https://merchant.example/hooks", description: nil, eventTypes: [],
                actor: "test", maxEnabled: 5)
        }
        return database.appURL
    }

    @Test func kekRotateMovesTheValuesToTheCurrentKeyAndStatusTellsTheOldOneIsUnused() async throws {
        let (a, b) = (SecureRandom.bytes(32), SecureRandom.bytes(32))
        let (idA, idB) = (SecretBox.keyId(of: a), SecretBox.keyId(of: b))
        let url = try await Self.databaseWithASecret(sealedBy: a)
        let root = try EmbeddedDefaultTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try Data(Data(a).base64EncodedString().utf8).write(to: URL(fileURLWithPath: root + "/old"))
        try Data(Hex.encode(b).utf8).write(to: URL(fileURLWithPath: root + "/new"))

        func kek(_ arguments: String...) throws -> (status: Int32, output: String, errors: String) {
            try ProductionDeployTests.switchyard(["kek"] + arguments + ["--database-url", url])
        }
        let before = try kek("status", "--kek-file", root + "/old")
        #expect(before.status == 0, "\(before.errors)")
        #expect(before.output.contains("key \(idA) (current): 1 values"), "\(before.output)")

        let rotate = try kek(
            "rotate", "--kek-file", root + "/new", "--kek-previous-file", root + "/old", "--batch-size", "1")
        #expect(rotate.status == 0, "\(rotate.errors)")
        #expect(rotate.output.contains("webhook_endpoints.secret_encrypted: 1 resealed"), "\(rotate.output)")
        #expect(rotate.output.contains("key \(idA) (previous): 0 values (nothing uses it: it can be removed)"))

        let after = try kek("status", "--kek-file", root + "/new")
        #expect(after.status == 0, "\(after.errors)")
        #expect(after.output.contains("key \(idB) (current): 1 values"), "\(after.output)")
        #expect(!after.output.contains(idA))

        let wrong = try kek("rotate", "--kek-file", root + "/old")
        #expect(wrong.status != 0)
        #expect(wrong.errors.contains(idB), "\(wrong.errors)")
    }

    @Test func aKeyThatDoesNotOpenTheStoredSecretsIsRefusedAtStart() async throws {
        let (a, b) = (SecureRandom.bytes(32), SecureRandom.bytes(32))
        let url = try await Self.databaseWithASecret(sealedBy: a)
        let root = try EmbeddedDefaultTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try Data(#"{"plugins":{"mode":"pinned"}}"#.utf8).write(to: URL(fileURLWithPath: root + "/p.json"))
        func serve(_ environment: [String: String], log: String) throws -> ServeProcess {
            try ServeProcess(
                arguments: [
                    "--database-url", url, "--policy", root + "/p.json", "--data-dir", root + "/data",
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
        // The server's log file is the only word it gives of having started.
        try await Poll.holds("the rotating server listening", within: .seconds(60), every: .milliseconds(100)) {
            rotating.output.contains("switchyard listening") || !rotating.process.isRunning
        }
        try await rotating.stop()
        #expect(rotating.output.contains("switchyard listening"), "\(rotating.output)")
    }
}
