import ArgumentParser
import Foundation
import SwitchyardCrypto

/// `switchyard plugins digest FILE…`: prints the SHA-256 to pin in policy.json.
struct PluginsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plugins", abstract: "Plugin tools.", subcommands: [Digest.self])

    struct Digest: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print the SHA-256 of plugin files for policy.json.")

        @Argument(help: "Plugin .so files.")
        var files: [String]

        func run() async throws {
            for file in files {
                guard let data = FileManager.default.contents(atPath: file) else {
                    throw ValidationError("cannot read \(file)")
                }
                print("\(Hex.encode(SHA2.sha256([UInt8](data))))  \(file)")
            }
        }
    }
}
