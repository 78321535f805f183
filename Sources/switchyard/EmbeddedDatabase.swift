import ArgumentParser
import Foundation
import Logging
import SwitchyardCrypto
import SwitchyardStore

/// The embedded default's private PostgreSQL cluster, kept under `<data-dir>/postgres`.
struct EmbeddedDatabase {
    let cluster: PostgresCluster
    let connectionString: String

    /// Initialises (first time) and starts the cluster, and creates the `switchyard` database.
    static func start(dataDirectory: String, logger: Logger) throws -> EmbeddedDatabase {
        guard let bin = PostgresCluster.findBinDirectory() else {
            throw ValidationError(
                "PostgreSQL server binaries not found; install the 'postgresql' package or pass --database-url")
        }
        try FileManager.default.createDirectory(atPath: dataDirectory, withIntermediateDirectories: true)
        let password = try StateFile.secret(at: dataDirectory + "/postgres.password") { SecureRandom.token(bytes: 24) }
        let port = PostgresCluster.freePort()
        let cluster = PostgresCluster(
            dataDirectory: dataDirectory + "/postgres", port: port, password: password, binDirectory: bin,
            logger: logger)
        try cluster.initializeIfNeeded()
        try cluster.start()
        try cluster.createDatabase("switchyard")
        let url = cluster.connectionString.replacingOccurrences(of: "dbname=postgres", with: "dbname=switchyard")
        logger.info(
            "embedded database started", metadata: ["db.port": "\(port)", "db.directory": "\(dataDirectory)/postgres"])
        return EmbeddedDatabase(cluster: cluster, connectionString: url)
    }

    func stop() throws {
        try cluster.stop()
    }
}

/// Small state files of the embedded default, created with owner-only permissions.
enum StateFile {
    /// Reads a secret file, creating it with `make()` when missing.
    static func secret(at path: String, make: () -> String) throws -> String {
        if let existing = try? String(contentsOfFile: path, encoding: .utf8) {
            let trimmed = existing.trimmingCharacters(in: .whitespacesAndNewlines)
            if !trimmed.isEmpty { return trimmed }
        }
        let value = make()
        try write(value + "\n", to: path)
        return value
    }

    /// Writes a file atomically with mode 0600.
    static func write(_ text: String, to path: String) throws {
        let temporary = path + ".tmp"
        guard
            FileManager.default.createFile(
                atPath: temporary, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600])
        else { throw ValidationError("cannot write \(path)") }
        if FileManager.default.fileExists(atPath: path) { try FileManager.default.removeItem(atPath: path) }
        try FileManager.default.moveItem(atPath: temporary, toPath: path)
    }
}
