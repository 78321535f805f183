import ArgumentParser
import Foundation
import SwitchyardStore

/// `migrate`: applies the schema's pending migrations as the owner of the tables, through the database
/// URL; the production executable needs one, the development executable's `migrate` falls back to its
/// embedded cluster (``run(embedded:)``).
package struct MigrateCommand: AsyncParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Apply pending database migrations.",
        discussion: """
            With --database-url (or SWITCHYARD_MIGRATE_DATABASE_URL, then SWITCHYARD_DATABASE_URL), connect \
            as the role that owns (or will own) the tables; `serve` then connects as a role that does not own \
            them. Without it, the development executable `switchyard` starts the embedded cluster in the data \
            directory, sets up its roles and migrates the tables as switchyard_owner; `switchyard-server` \
            refuses.
            """)

    package init() {}

    @OptionGroup package var database: DatabaseOptions

    /// SWITCHYARD_MIGRATE_DATABASE_URL: the owner's connection, beside the server's SWITCHYARD_DATABASE_URL.
    static var migrateURL: String? {
        ProcessInfo.processInfo.environment["SWITCHYARD_MIGRATE_DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    package func run() async throws {
        try await run(embedded: nil)
    }

    /// Migrates through the configured URL or, when there is none, the cluster `embedded` starts; with
    /// neither, refuses naming the flag and the variables.
    package func run(embedded: (any EmbeddedDefault)?) async throws {
        let logger = try CommandSupport.logger()
        let applied: [Int]
        if let databaseURL = database.databaseURLOption ?? Self.migrateURL ?? database.databaseURL {
            applied = try await CommandSupport.migrate(url: databaseURL, logger: logger)
        } else if let embedded {
            let started = try await embedded.startDatabase(
                dataDirectory: CommandSupport.absolute(database.dataDir), logger: logger)
            defer { try? started.stop() }
            applied = try await started.migrate(logger: logger)
        } else {
            throw ValidationError(
                "no database: pass --database-url or set SWITCHYARD_MIGRATE_DATABASE_URL or SWITCHYARD_DATABASE_URL")
        }
        print(
            applied.isEmpty
                ? "schema is up to date" : "applied migrations \(applied.map(String.init).joined(separator: ", "))")
    }
}
