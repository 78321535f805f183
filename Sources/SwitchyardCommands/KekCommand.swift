import ArgumentParser
import Foundation
import Logging
import SwitchyardStore

/// `switchyard kek`: the key-encryption keyring's rotation and how many stored values each key seals.
struct KekCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kek",
        abstract: "Rotate the key-encryption key and see which keys stored secrets use.",
        discussion: """
            Both subcommands connect with --database-url (or SWITCHYARD_DATABASE_URL) as the server's own role \
            and read the keyring as `serve` does: the current key from SWITCHYARD_KEK or --kek-file, the \
            previous ones from SWITCHYARD_KEK_PREVIOUS (comma-separated) and --kek-previous-file.
            """,
        subcommands: [KekStatusCommand.self, KekRotateCommand.self])

    /// Runs `body` with a store over the server's connection and the configured keyring.
    static func withStore<T: Sendable>(
        _ database: DatabaseOptions, _ body: @escaping @Sendable (PostgresStore, SecretBox) async throws -> T
    ) async throws -> T {
        let logger = try CommandSupport.logger()
        guard let url = database.databaseURL else {
            throw ValidationError("pass --database-url (or SWITCHYARD_DATABASE_URL) with the server's own login")
        }
        guard let secrets = try CommandSupport.secretBox(database) else {
            throw ValidationError("a key-encryption key is required: set SWITCHYARD_KEK or pass --kek-file")
        }
        return try await PGPool.scoped(connectionString: url, logger: logger) { pool in
            try await body(PostgresStore(pool: pool, secrets: secrets, clock: { Date() }, logger: logger), secrets)
        }
    }

    /// Lines telling, per key id, how many stored values it seals and whether the keyring has it.
    static func statusLines(_ counts: [SealedValueCount], keyring: SecretBox) -> [String] {
        var totals: [String: Int] = [keyring.currentKeyId: 0]
        for id in keyring.previousKeyIds { totals[id] = 0 }
        for count in counts { totals[count.keyId, default: 0] += count.count }
        func role(_ id: String) -> String {
            if id == keyring.currentKeyId { return "current" }
            if keyring.previousKeyIds.contains(id) { return "previous" }
            if id == PostgresKeyRotation.legacyKeyId { return "sealed before key ids; opens with a configured key" }
            return "NOT CONFIGURED"
        }
        let order = [keyring.currentKeyId] + keyring.previousKeyIds
        let others = totals.keys.filter { !order.contains($0) }.sorted()
        return (order + others).map { id in
            let used = totals[id] ?? 0
            let retire = id != keyring.currentKeyId && used == 0 ? " (nothing uses it: it can be removed)" : ""
            let columns = counts.filter { $0.keyId == id }.map { "\($0.column)=\($0.count)" }.joined(separator: " ")
            return "key \(id) (\(role(id))): \(used) values\(retire)\(columns.isEmpty ? "" : " [\(columns)]")"
        }
    }
}

/// `switchyard kek status`: per key id, how many stored values it seals.
struct KekStatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Tell, per key id, how many stored values it seals.")

    @OptionGroup var database: DatabaseOptions

    func run() async throws {
        let lines = try await KekCommand.withStore(database) { store, secrets in
            KekCommand.statusLines(try await store.keyRotation.sealedValueCounts(), keyring: secrets)
        }
        lines.forEach { print($0) }
    }
}

/// `switchyard kek rotate`: seals every stored value again under the current key.
struct KekRotateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rotate",
        abstract: "Seal every stored secret not sealed by the current key again under it.",
        discussion: """
            Runs while servers serve: each batch is its own short transaction whose rows are locked, and rows \
            another transaction is writing are left for the next run. Idempotent and resumable: run it again \
            until `switchyard kek status` shows no value left under the old key, then remove that key.
            """)

    @OptionGroup var database: DatabaseOptions

    @Option(help: "Rows per transaction (default: 200).")
    var batchSize: Int = 200

    func validate() throws {
        guard (1...10_000).contains(batchSize) else { throw ValidationError("--batch-size must be 1 to 10000") }
    }

    func run() async throws {
        let batchSize = self.batchSize
        let lines = try await KekCommand.withStore(database) { store, secrets in
            print("sealing under key \(secrets.currentKeyId)")
            let totals = try await store.keyRotation.rotateSealedValues(batchSize: batchSize) { column, resealed in
                print("\(column): \(resealed) resealed so far")
            }
            let summary = totals.map { "\($0.column): \($0.resealed) resealed" }
            return summary + KekCommand.statusLines(try await store.keyRotation.sealedValueCounts(), keyring: secrets)
        }
        lines.forEach { print($0) }
    }
}
