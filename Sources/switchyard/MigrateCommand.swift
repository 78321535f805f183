import ArgumentParser
import Foundation
import SwitchyardStore

/// `switchyard migrate`: applies the schema's pending migrations as the owner of the tables.
struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Apply pending database migrations.",
        discussion: """
            With --database-url (or SWITCHYARD_MIGRATE_DATABASE_URL, then SWITCHYARD_DATABASE_URL), connect \
            as the role that owns (or will own) the tables; `switchyard serve` then connects as a role that \
            does not own them. Without it, the embedded cluster in the data \
            directory is started, its roles are set up and the tables are migrated as switchyard_owner.
            """)

    @OptionGroup var database: DatabaseOptions

    /// SWITCHYARD_MIGRATE_DATABASE_URL: the owner's connection, beside the server's SWITCHYARD_DATABASE_URL.
    static var migrateURL: String? {
        ProcessInfo.processInfo.environment["SWITCHYARD_MIGRATE_DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    func run() async throws {
        let logger = try CommandSupport.logger()
        let applied: [Int]
        if let databaseURL = database.databaseURLOption ?? Self.migrateURL ?? database.databaseURL {
            applied = try await CommandSupport.migrate(url: databaseURL, logger: logger)
        } else {
            let embedded = try EmbeddedDatabase.start(
                dataDirectory: CommandSupport.absolute(database.dataDir), logger: logger)
            defer { try? embedded.stop() }
            applied = try await embedded.migrate(logger: logger)
        }
        print(
            applied.isEmpty
                ? "schema is up to date" : "applied migrations \(applied.map(String.init).joined(separator: ", "))")
    }
}
