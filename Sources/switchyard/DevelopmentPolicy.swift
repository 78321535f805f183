import Foundation
import Logging
import SwitchyardCommands
import SwitchyardCore

/// The policy the embedded default writes for itself when no `--policy` is given: development mode
/// for the bundled plugins, and webhooks allowed to plain-http receivers on loopback (the demo's own
/// machine). A production server never gets it: with --database-url a policy file is required.
enum DevelopmentPolicy {
    /// The plugins built with Switchyard (from the plugin products, not the emulators).
    static let bundledPlugins = BundledPlugins.ids

    /// `<data-dir>/policy.json`, written with the development policy unless it exists (an operator may
    /// edit it; `POST /admin/v1/policy/reload` reads it again).
    static func write(dataDirectory: String, logger: Logger) throws -> String {
        let path = dataDirectory + "/policy.json"
        if !FileManager.default.fileExists(atPath: path) {
            try StateFile.write(text, to: path)
        }
        if FileManager.default.contents(atPath: path) == Data(text.utf8) {
            logger.warning(
                "no policy file given: using the built-in development policy (bundled plugin ids only, any digest)",
                metadata: ["policy.file": "\(path)", "plugin.ids": "\(bundledPlugins.joined(separator: ","))"])
        } else {
            logger.warning(
                "no policy file given: using the embedded default's policy file, edited since it was written",
                metadata: ["policy.file": "\(path)"])
        }
        return path
    }

    /// The platform sections of the development policy: the defaults, with webhooks allowed to plain-http
    /// receivers on loopback.
    static var platform: PlatformPolicy {
        var policy = PlatformPolicy()
        policy.webhooks.requireHTTPS = false
        policy.webhooks.allowHosts = ["127.0.0.1", "localhost", "::1"]
        return policy
    }

    /// The policy file's text: the plugins section, then the keys of ``platform`` that differ from the
    /// declared defaults, named and written as their declarations say.
    static var text: String {
        let plugins = bundledPlugins.map { #"      { "id": "\#($0)" }"# }.joined(separator: ",\n")
        let sections = platform.changedKeys().map { section in
            let keys = section.keys.map { #"    "\#($0.key)": \#($0.text)"# }.joined(separator: ",\n")
            return "  \"\(section.section)\": {\n\(keys)\n  }"
        }
        let pluginsSection = """
              "plugins": {
                "mode": "development",
                "allowed": [
            \(plugins)
                ]
              }
            """
        return "{\n" + ([pluginsSection] + sections).joined(separator: ",\n") + "\n}\n"
    }
}
