import ArgumentParser
import Foundation
import SwitchyardCrypto

/// `switchyard plugins digest FILE…` and `switchyard plugins pin DIR`: what to pin in policy.json.
struct PluginsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plugins", abstract: "Plugin tools.", subcommands: [Digest.self, Pin.self])

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
