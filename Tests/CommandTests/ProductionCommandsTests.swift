import ArgumentParser
import Foundation
import PluginHost
import Testing

@testable import SwitchyardCommands

/// What the production executable's own commands decide without a database: `serve` and `migrate` refuse
/// to run without one, the bundled plugins come from the plugin products, and there is no `bench` among
/// them (the development executable has it).
struct ProductionCommandsTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    @Test(.enabled(if: ProcessInfo.processInfo.environment["SWITCHYARD_DATABASE_URL"] == nil))
    func serveWithoutADatabaseRefusesNamingTheFlagAndTheVariable() throws {
        #expect(throws: (any Error).self) { try ServeCommand.parse([]) }
        do {
            _ = try ServeCommand.parse(["--port", "9000"])
        } catch {
            let message = ServeCommand.message(for: error)
            #expect(message.contains("--database-url"))
            #expect(message.contains("SWITCHYARD_DATABASE_URL"))
            #expect(ServeCommand.exitCode(for: error) != .success)
        }
        let command = try ServeCommand.parse(["--database-url", "postgresql:///switchyard", "--port", "9000"])
        #expect(command.options.database.databaseURL == "postgresql:///switchyard")
        #expect(try command.options.port == 9000)
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment["SWITCHYARD_DATABASE_URL"] == nil))
    func migrateWithoutADatabaseRefuses() async throws {
        let command = try MigrateCommand.parse([])
        await #expect(throws: ValidationError.self) { try await command.run(embedded: nil) }
    }

    @Test func theSharedCommandsHaveNoBenchUnlessOneIsGiven() throws {
        let names = SharedCommands.all(serve: ServeCommand.self, migrate: MigrateCommand.self).map {
            $0.configuration.commandName ?? ""
        }
        #expect(names.contains("serve") && names.contains("doctor"))
        #expect(!names.contains("bench"))
    }

    @Test func theBundledPluginsAreThePluginProducts() throws {
        // Package.swift declares each plugin product with one `provider("<Name>")` line.
        let package = try String(contentsOfFile: Self.repository + "/Package.swift", encoding: .utf8)
        let declared = package.matches(of: /provider\("([A-Za-z]+)"\)/).map { String($0.1) + "Plugin" }
        #expect(!declared.isEmpty)
        #expect(BundledPlugins.all.map(\.product).sorted() == declared.sorted())
        #expect(BundledPlugins.ids.sorted() == ["antom", "citcon", "worldline-direct", "worldline-sips"])
        #expect(BundledPlugins.all.first { $0.id == "citcon" }?.fileName == "libCitconPlugin.so")
    }

    @Test func bothServerExecutablesRunScanners() {
        #expect(
            PluginExecutable.running("/usr/local/bin/switchyard-server")?.workerPath
                == "/usr/local/bin/switchyard-plugin-worker")
        #expect(PluginExecutable.running("/repo/.build/debug/switchyard") != nil)
        #expect(PluginExecutable.running("/repo/.build/debug/SwitchyardPackageTests.xctest") == nil)
        #expect(PluginExecutable.running("/usr/local/bin/switchyard-plugin-worker") == nil)
    }
}
