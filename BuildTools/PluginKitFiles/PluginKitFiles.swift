import Foundation
import PackagePlugin

/// Embeds the plugin kit's files in the commands: the C SDK (the ABI header and its JSON Schemas, from
/// `Sources/CSwitchyardPlugin`) and the templates of `switchyard plugins new` (`Plugins/Templates`), so an
/// installed executable writes them without the source tree.
@main
struct PluginKitFiles: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let root = context.package.directoryURL
        let trees: [(key: String, directory: URL)] = [
            ("sdk/include", root.appending(path: "Sources/CSwitchyardPlugin/include")),
            ("sdk/schema", root.appending(path: "Sources/CSwitchyardPlugin/schema")),
            ("templates", root.appending(path: "Plugins/Templates")),
        ]
        var pairs: [String] = []
        var inputs: [URL] = []
        for tree in trees {
            for (relative, file) in Self.files(under: tree.directory) {
                pairs += [tree.key + "/" + relative, file.path]
                inputs.append(file)
            }
        }
        let output = context.pluginWorkDirectoryURL.appending(path: "SDKFiles+Generated.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(inputs.count) plugin kit files",
                executable: try context.tool(named: "PluginKitFilesGenerator").url,
                arguments: [output.path] + pairs,
                inputFiles: inputs,
                outputFiles: [output])
        ]
    }

    /// Every regular file below `directory`, by its path relative to it, in path order.
    static func files(under directory: URL) -> [(String, URL)] {
        let base = directory.standardizedFileURL.path
        guard let walker = FileManager.default.enumerator(atPath: base) else { return [] }
        var found: [(String, URL)] = []
        while let relative = walker.nextObject() as? String {
            let url = URL(fileURLWithPath: base + "/" + relative)
            var isDirectory: ObjCBool = false
            let name = url.lastPathComponent
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue,
                name != ".DS_Store", !relative.contains("/.build/"), !relative.hasPrefix(".build/")
            else { continue }
            found.append((relative, url))
        }
        return found.sorted { $0.0 < $1.0 }
    }
}
