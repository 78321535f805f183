import Foundation
import Logging

/// The policy the embedded default writes for itself when no `--policy` is given: development mode
/// for the bundled plugins, and webhooks allowed to plain-http receivers on loopback (the demo's own
/// machine). A production server never gets it: with --database-url a policy file is required.
enum DevelopmentPolicy {
    /// The plugins built with Switchyard.
    static let bundledPlugins = ["citcon", "worldline-direct", "antom", "worldline-sips"]

    /// `<data-dir>/policy.json`, written with the development policy unless it exists (an operator may
    /// edit it; `POST /admin/v1/policy/reload` reads it again).
    static func write(dataDirectory: String, logger: Logger) throws -> String {
        let path = dataDirectory + "/policy.json"
        if !FileManager.default.fileExists(atPath: path) {
            try StateFile.write(text, to: path)
        }
        logger.info("using the embedded default's development policy", metadata: ["policy.file": "\(path)"])
        return path
    }

    /// The policy file's text.
    static var text: String {
        let plugins = bundledPlugins.map { #"      { "id": "\#($0)" }"# }.joined(separator: ",\n")
        return """
            {
              "plugins": {
                "mode": "development",
                "allowed": [
            \(plugins)
                ]
              },
              "webhooks": {
                "require_https": false,
                "allow_hosts": ["127.0.0.1", "localhost", "::1"]
              }
            }

            """
    }
}
