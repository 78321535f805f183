import ArgumentParser

/// The subcommands both executables offer, in the order `--help` lists them; each executable gives its
/// own `serve` and `migrate` (the development one adds the embedded default to them) and may add more: the
/// development one adds `bench`, which the production executable does not link.
package enum SharedCommands {
    /// `serve`, `migrate`, `plugins`, `extra`, then the other commands, the same in both executables.
    package static func all(
        serve: any ParsableCommand.Type, migrate: any ParsableCommand.Type, bench: (any ParsableCommand.Type)? = nil,
        extra: [any ParsableCommand.Type] = []
    ) -> [any ParsableCommand.Type] {
        [serve, migrate, PluginsCommand.self] + extra + [PluginScanCommand.self] + (bench.map { [$0] } ?? []) + [
            DoctorCommand.self, PolicyCommand.self, KekCommand.self, OperatorsCommand.self,
        ]
    }
}
