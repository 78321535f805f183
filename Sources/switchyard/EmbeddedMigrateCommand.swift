import ArgumentParser
import SwitchyardCommands

/// `switchyard migrate`: the shared `migrate`, which without a database URL migrates the embedded cluster
/// of the data directory.
struct EmbeddedMigrateCommand: AsyncParsableCommand {
    static let configuration = MigrateCommand.configuration

    @OptionGroup var database: DatabaseOptions

    func run() async throws {
        var command = MigrateCommand()
        command.database = database
        try await command.run(embedded: DemoEmbeddedDefault())
    }
}
