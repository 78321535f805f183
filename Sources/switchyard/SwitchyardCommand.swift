import ArgumentParser
import SwitchyardCommands

/// The `switchyard` executable: the shared commands with the embedded default (private PostgreSQL,
/// provider sandboxes, demo tenant), the `sandbox` command and the bench flows that need the sandboxes.
@main
struct SwitchyardCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "switchyard",
        abstract: "Multi-tenant payment orchestration.",
        subcommands: SharedCommands.all(
            serve: EmbeddedServeCommand.self, migrate: EmbeddedMigrateCommand.self, bench: EmbeddedBenchCommand.self,
            extra: [SandboxCommand.self]),
        defaultSubcommand: EmbeddedServeCommand.self)
}
