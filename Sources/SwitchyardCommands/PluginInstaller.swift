import ArgumentParser
import Foundation
import Logging

/// Copies the plugins built beside the executable into the plugins directory (atomically, only when changed).
package enum PluginInstaller {
    package static func installBuiltPlugins(from directory: String, into pluginsDirectory: String, logger: Logger)
        throws
    {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        for file in files where file.hasPrefix("lib") && file.hasSuffix("Plugin.so") {
            let source = directory + "/" + file
            let target = pluginsDirectory + "/" + file
            guard let data = FileManager.default.contents(atPath: source) else { continue }
            if let existing = FileManager.default.contents(atPath: target), existing == data { continue }
            let temporary = pluginsDirectory + "/." + file + ".tmp"
            guard FileManager.default.createFile(atPath: temporary, contents: data) else {
                throw ValidationError("cannot write \(temporary)")
            }
            if FileManager.default.fileExists(atPath: target) { try FileManager.default.removeItem(atPath: target) }
            try FileManager.default.moveItem(atPath: temporary, toPath: target)
            logger.info("plugin installed", metadata: ["plugin.file": "\(file)"])
        }
    }
}
