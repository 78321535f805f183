import CSwitchyardPlugin
import Foundation
import PluginWorkerCore
import ProviderKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The raw steps of opening a plugin image and reading its table.
enum PluginImage {
    /// Opens `path` and returns its entry table once its ABI version and size are acceptable.
    static func open(_ path: String) throws(PluginRefusal) -> PluginTable {
        do throws(PluginImageError) {
            return try PluginImageFile.open(path)
        } catch {
            throw PluginRefusal(error.kind == .abiMismatch ? .abiMismatch : .garbageFile, error.reason)
        }
    }

    /// The largest manifest read.
    static let maximumManifestBytes = 1 << 20

    /// Decodes and validates the table's manifest.
    static func manifest(of table: PluginTable) throws(PluginRefusal) -> PluginManifest {
        guard let text = table.entries.manifest_json else {
            throw PluginRefusal(.badManifest, "the table has no manifest")
        }
        let length = strnlen(text, maximumManifestBytes + 1)
        guard length <= maximumManifestBytes else {
            throw PluginRefusal(.badManifest, "the manifest is larger than \(maximumManifestBytes) bytes")
        }
        let manifest: PluginManifest
        do {
            manifest = try PluginJSON.decode(PluginManifest.self, from: Data(bytes: text, count: length))
        } catch {
            throw PluginRefusal(.badManifest, "the manifest does not decode")
        }
        try validate(manifest)
        return manifest
    }

    /// Checks what the host relies on in a decoded manifest: a well-formed id and this ABI's version.
    static func validate(_ manifest: PluginManifest) throws(PluginRefusal) {
        guard isValidID(manifest.id) else {
            throw PluginRefusal(.badManifest, "the manifest's id is empty or has characters outside a-z 0-9 . _ -")
        }
        let expected = UInt32(SWITCHYARD_PLUGIN_ABI_VERSION)
        guard manifest.abiVersion == expected else {
            throw PluginRefusal(
                .abiMismatch, "manifest ABI version \(manifest.abiVersion), host ABI version \(expected)")
        }
    }

    /// Plugin ids are short lowercase identifiers: they name plugins in accounts, logs and URLs.
    static func isValidID(_ id: String) -> Bool {
        guard (1...64).contains(id.utf8.count) else { return false }
        return id.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
        }
    }
}
