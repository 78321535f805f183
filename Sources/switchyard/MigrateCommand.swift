import ArgumentParser
import Foundation
import SwitchyardStore

/// `switchyard migrate`: applies the schema's pending migrations.
struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate", abstract: "Apply pending database migrations.")

    @OptionGroup var database: DatabaseOptions

    func run() async throws {
        let logger = CommandSupport.logger()
        var embedded: EmbeddedDatabase?
        let url: String
        if let databaseURL = database.databaseURL {
            url = databaseURL
        } else {
            let started = try EmbeddedDatabase.start(
                dataDirectory: CommandSupport.absolute(database.dataDir), logger: logger)
            embedded = started
            url = started.connectionString
        }
        defer { try? embedded?.stop() }
        let pool = try PGPool(PostgresConfiguration(connectionString: url, poolSize: 1), logger: logger)
        let applied = try await Migrator.migrate(pool, migrations: Schema.migrations, logger: logger)
        await pool.shutdown()
        print(
            applied.isEmpty
                ? "schema is up to date" : "applied migrations \(applied.map(String.init).joined(separator: ", "))")
    }
}
