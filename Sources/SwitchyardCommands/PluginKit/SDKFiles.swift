import Foundation
import PluginHost
import ProviderKit

/// The plugin kit's files embedded in the executable (generated from `Sources/CSwitchyardPlugin` and
/// `Plugins/Templates` by the `PluginKitFiles` build tool): the C SDK and the templates.
enum SDKFiles {
    /// The files under `prefix` (e.g. `sdk/`, `templates/swift/`), by their path below it.
    static func files(under prefix: String) -> [String: Data] {
        var found: [String: Data] = [:]
        for (key, base64) in generated where key.hasPrefix(prefix) {
            found[String(key.dropFirst(prefix.count))] = Data(base64Encoded: base64)
        }
        return found
    }

    /// The ABI's JSON Schemas, read from the embedded copy.
    static let schemaValidator = ABISchemaValidator { name in
        guard let base64 = generated["sdk/schema/" + name], let data = Data(base64Encoded: base64) else {
            throw ABISchemaError("no schema \(name)")
        }
        return data
    }

    /// Writes the C SDK into `directory`: `include/switchyard_plugin.h`, `schema/…`, `toolchain.json` and
    /// a README.
    static func writeSDK(into directory: String) throws {
        for (path, data) in files(under: "sdk/") {
            try write(data, to: directory + "/" + path)
        }
        let runtime = PluginSwiftRuntime.current
        let toolchain: [String: JSONValue] = [
            "abiVersion": .integer(Int64(PluginManifest.currentABIVersion)),
            "swiftVersion": .string(runtime.swiftVersion),
            "toolchain": runtime.toolchain.map { .string($0) } ?? .null,
            "swiftRuntime": runtime.runtimeLibrary.map { .string($0) } ?? .null,
        ]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try write(try encoder.encode(JSONValue.object(toolchain)) + Data("\n".utf8), to: directory + "/toolchain.json")
        try write(Data(readme(runtime).utf8), to: directory + "/README.md")
    }

    private static func readme(_ runtime: PluginSwiftRuntime) -> String {
        """
        # The Switchyard plugin SDK (C ABI version \(PluginManifest.currentABIVersion))

        - `include/switchyard_plugin.h`: the ABI. A plugin is a shared object exporting
          `switchyard_plugin_entry`; the header's comment is the contract.
        - `schema/`: the JSON Schemas of the manifest, of every flow's request and reply, and of the host
          services' messages.
        - `toolchain.json`: the Swift runtime the workers run (Swift \(runtime.swiftVersion), \
        \(runtime.toolchain ?? "toolchain unknown")). A plugin written in Swift shares it and must be built
          with that toolchain; the host refuses one linked against another Swift runtime, or carrying its own.
          A plugin in C (or any language without the Swift runtime) needs only the header.

        Certify a plugin with `switchyard plugins check FILE.so [--scenario FILE]` and install it with
        `switchyard plugins install FILE.so`; docs/plugins.md and docs/plugin-abi.md of the Switchyard source
        say more.

        """
    }

    static func write(_ data: Data, to path: String) throws {
        let directory = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        guard FileManager.default.createFile(atPath: path, contents: data) else {
            throw CertificationInputError("cannot write \(path)")
        }
    }
}
