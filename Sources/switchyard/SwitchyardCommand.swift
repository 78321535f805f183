import ArgumentParser

/// The `switchyard` executable.
@main
struct SwitchyardCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "switchyard",
        abstract: "Multi-tenant payment orchestration.",
        subcommands: [
            ServeCommand.self, MigrateCommand.self, PluginsCommand.self, SandboxCommand.self, PluginScanCommand.self,
            BenchCommand.self, DoctorCommand.self, PolicyCommand.self, KekCommand.self,
        ],
        defaultSubcommand: ServeCommand.self)
}
