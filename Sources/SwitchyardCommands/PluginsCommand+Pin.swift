import ArgumentParser
import Foundation
import Logging
import PluginHost

extension PluginsCommand {
    /// `switchyard plugins pin DIR [--policy FILE]`: the pinned `plugins` section for the plugins in a
    /// directory, each file examined by the scanner process (never opened by this command).
    struct Pin: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the pinned policy.json plugins section (id, version, SHA-256) for a directory of plugins.",
            discussion: """
                Every .so file in DIR is examined by a `switchyard plugin-scan` process; files that are not \
                plugins are skipped with a note on standard error. With --policy, the whole policy file is \
                printed with its plugins section replaced, ready to install.
                """)

        @Argument(help: "Directory holding the plugin .so files.")
        var directory: String

        @Option(help: "A policy file to print with its plugins section replaced by the pinned one.")
        var policy: String?

        func run() async throws {
            guard let executable = PluginExecutable.current() else {
                throw ValidationError("the plugin scanner needs the switchyard executable itself")
            }
            let scanner = PluginScanner(executable: executable, logger: Logger(label: "switchyard.plugins"))
            let section = try await PluginPin.section(directory: directory, scanner: scanner) { note in
                FileHandle.standardError.write(Data((note + "\n").utf8))
            }
            var document: [String: Any] = ["plugins": section]
            if let policy {
                guard let data = FileManager.default.contents(atPath: policy),
                    let existing = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
                else {
                    throw ValidationError("cannot read \(policy) as a JSON object")
                }
                document = existing
                document["plugins"] = section
            }
            let output = try JSONSerialization.data(
                withJSONObject: policy == nil ? section : document,
                options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
            print(String(decoding: output, as: UTF8.self))
        }
    }
}
