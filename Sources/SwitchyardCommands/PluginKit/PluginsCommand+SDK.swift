import ArgumentParser
import Foundation

extension PluginsCommand {
    /// `switchyard plugins sdk --out DIR`: writes the C SDK.
    struct SDK: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sdk",
            abstract: "Write the plugin SDK: the C header, the JSON Schemas and the Swift runtime plugins must share.")

        @Option(help: "The directory to write (created if missing).")
        var out: String

        func run() throws {
            do {
                try SDKFiles.writeSDK(into: out)
            } catch let error as CertificationInputError {
                throw ValidationError(error.description)
            }
            print("plugin SDK written to \(out): include/switchyard_plugin.h, schema/, toolchain.json, README.md")
        }
    }
}
