import ArgumentParser
import SwitchyardCommands

/// The `switchyard-server` executable: the production commands against an external database. It carries
/// no provider emulator, no demo seed, no private cluster and no bench (the development executable
/// `switchyard` adds those).
@main
struct SwitchyardServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "switchyard-server",
        abstract: "Multi-tenant payment orchestration (production server; needs an external database).",
        subcommands: SharedCommands.all(serve: ServeCommand.self, migrate: MigrateCommand.self),
        defaultSubcommand: ServeCommand.self)
}
