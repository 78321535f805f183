import ArgumentParser
import Foundation
import ProviderSandbox
import SwitchyardCommands

/// `switchyard sandbox`: runs the provider sandboxes alone.
struct SandboxCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sandbox", abstract: "Run the provider sandboxes on loopback.",
        discussion: "Each provider's emulator takes its own options, as --name VALUE or --name=VALUE:\n\n"
            + SandboxConfiguration.commandLineOptions.map { "--\($0.name) <value>\n    \($0.help)" }
            .joined(separator: "\n"))

    @Option(help: "Port to listen on (0 picks a free one).")
    var port: Int = 8090

    @Option(help: "Write the bound port to this file once listening.")
    var portFile: String?

    @Option(
        help: """
            Serve the demo merchants of this embedded-default data directory (their secrets are made there when \
            missing), for `switchyard serve --data-dir <dir> --sandbox-url <this sandbox>`.
            """)
    var demoDataDir: String?

    /// The emulators' own options (see the discussion), as given.
    @Argument(parsing: .allUnrecognized, help: .hidden)
    var emulatorOptions: [String] = []

    func validate() throws {
        _ = try CommandSupport.checkedPort(port, from: "--port")
        _ = try emulatorConfiguration()
        if demoDataDir != nil && !emulatorOptions.isEmpty {
            throw ValidationError("--demo-data-dir configures the emulators itself: give no emulator options with it")
        }
    }

    func run() async throws {
        let logger = try CommandSupport.logger("switchyard.sandbox")
        let configuration =
            try demoDataDir.map { directory in
                try StateFile.makePrivateDirectory(CommandSupport.absolute(directory))
                return try DemoSandboxMerchants(dataDirectory: CommandSupport.absolute(directory)).sandboxConfiguration
            } ?? emulatorConfiguration()
        let server = SandboxServer(configuration: configuration, logger: logger)
        let portFile = self.portFile
        try await server.run(host: "127.0.0.1", port: port) { port in
            if let portFile { try? StateFile.write("\(port)\n", to: portFile) }
            logger.info("sandbox listening", metadata: ["http.port": "\(port)"])
        }
    }

    /// The registered emulators configured by their options.
    func emulatorConfiguration() throws -> SandboxConfiguration {
        do {
            return try SandboxConfiguration.commandLine(emulatorOptions)
        } catch {
            throw ValidationError(error.message)
        }
    }
}
