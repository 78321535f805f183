import ArgumentParser

/// The subcommands both executables offer, in the order `--help` lists them; each executable gives its
/// own `serve`, `migrate` and `bench` (the development one adds the embedded default to them) and may add
/// more.
package enum SharedCommands {
    /// `serve`, `migrate`, `plugins`, `extra`, then the other commands, the same in both executables.
    package static func all(
        serve: any ParsableCommand.Type, migrate: any ParsableCommand.Type, bench: any ParsableCommand.Type,
        extra: [any ParsableCommand.Type] = []
    ) -> [any ParsableCommand.Type] {
        [serve, migrate, PluginsCommand.self] + extra + [
            PluginScanCommand.self, bench, DoctorCommand.self, PolicyCommand.self, KekCommand.self,
        ]
    }
}
