import ArgumentParser
import Foundation
import Logging
import SwitchyardCluster
import SwitchyardCommands
import SwitchyardCrypto
import SwitchyardStore

/// The embedded default's private PostgreSQL cluster, kept under `<data-dir>/postgres`.
///
/// The tables live in the `switchyard` database and belong to the `switchyard_owner` role, which
/// migrates; the server connects as `switchyard_app`, which owns nothing (see ``DatabaseRoles``).
/// Both passwords are generated once and kept, mode 0600, in the data directory.
struct EmbeddedDatabase: EmbeddedDatabaseHandle {
    static let databaseName = "switchyard"

    let cluster: PostgresCluster
    /// Connects as the owner of the tables.
    let ownerURL: String
    /// Connects as the application role.
    let appURL: String

    /// Initialises (first time) and starts the cluster, creates the `switchyard` database and its roles.
    static func start(dataDirectory: String, logger: Logger) async throws -> EmbeddedDatabase {
        guard let bin = PostgresCluster.findBinDirectory() else {
            throw ValidationError(
                "PostgreSQL server binaries not found; install the 'postgresql' package or pass --database-url")
        }
        try StateFile.makePrivateDirectory(dataDirectory)
        let password = try StateFile.secret(at: dataDirectory + "/postgres.password") { SecureRandom.token(bytes: 24) }
        let port = PostgresCluster.freePort()
        let cluster = PostgresCluster(
            dataDirectory: dataDirectory + "/postgres", port: port, password: password, binDirectory: bin,
            logger: logger)
        try cluster.initializeIfNeeded()
        try cluster.start()
        try await cluster.createDatabase(databaseName)
        let roles = DatabaseRoles(
            ownerPassword: try StateFile.secret(at: dataDirectory + "/postgres-owner.password") {
                SecureRandom.token(bytes: 24)
            },
            appPassword: try StateFile.secret(at: dataDirectory + "/postgres-app.password") {
                SecureRandom.token(bytes: 24)
            })
        try await roles.provision(
            adminConnectionString: cluster.connectionString(database: databaseName), database: databaseName,
            logger: logger)
        logger.info(
            "embedded database started",
            metadata: [
                "db.port": "\(port)", "db.directory": "\(dataDirectory)/postgres", "db.name": "\(databaseName)",
            ])
        return EmbeddedDatabase(
            cluster: cluster,
            ownerURL: cluster.connectionString(
                database: databaseName, user: roles.owner, password: roles.ownerPassword),
            appURL: cluster.connectionString(database: databaseName, user: roles.app, password: roles.appPassword))
    }

    /// Applies pending migrations as the owner; warns when an earlier version left tables in `postgres`.
    func migrate(logger: Logger) async throws -> [Int] {
        let applied = try await CommandSupport.migrate(url: ownerURL, logger: logger)
        let legacy = try await PGPool.scoped(connectionString: cluster.connectionString, logger: logger) { pool in
            try await pool.withConnection { c in
                try await c.query("SELECT to_regclass('public.schema_migrations') IS NOT NULL AS present").first?[
                    "present"]
            }
        }
        if legacy == "t" {
            logger.warning(
                "an earlier version kept the embedded tables in database postgres; they are not moved to database switchyard",
                metadata: ["db.name": "postgres"])
        }
        return applied
    }

    func stop() throws {
        try cluster.stop()
    }
}
