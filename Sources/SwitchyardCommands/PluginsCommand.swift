import ArgumentParser
import Foundation
import SwitchyardCrypto

/// The plugin tools: `digest` and `pin` (what to pin in policy.json), and the plugin kit: `sdk`, `new`,
/// `check` and `install` (docs/plugins.md).
struct PluginsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plugins", abstract: "Plugin tools.",
        subcommands: [Digest.self, Pin.self, SDK.self, New.self, Check.self, Install.self])

    struct Digest: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print the SHA-256 of plugin files for policy.json.")

        @Argument(help: "Plugin .so files.")
        var files: [String]

        func run() async throws {
            for file in files {
                print("\(try PluginPin.digest(of: file))  \(file)")
            }
        }
    }
}
