import CSwitchyardPlugin
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#endif

/// A plugin's entry table as this host reads it.
///
/// The table is versioned by `struct_size`: a plugin built against an older header exports a smaller
/// table, one built against a newer header a larger one. Only the entries the plugin's `struct_size`
/// covers are read; entries beyond it are absent ("not supported"), and entries this host does not know
/// are ignored. `create`, `destroy` and `invoke` are required, so the smallest acceptable table ends
/// with `invoke`; `cancel` may be absent or NULL.
package struct PluginTable: @unchecked Sendable {
    /// The entries the plugin provides, the absent ones NULL.
    package let entries: sy_plugin_table
    /// The plugin's `struct_size`.
    package let structSize: UInt32

    /// The smallest table accepted: up to and including `invoke`.
    package static let minimumSize: Int =
        MemoryLayout<sy_plugin_table>.offset(of: \sy_plugin_table.invoke)! + MemoryLayout<UnsafeRawPointer>.size

    /// Reads the table the entry function returned; its `abi_version` has been checked already.
    package init(reading table: UnsafePointer<sy_plugin_table>) throws(PluginImageError) {
        let raw = UnsafeRawPointer(table)
        let size = raw.load(fromByteOffset: MemoryLayout<UInt32>.size, as: UInt32.self)
        guard Int(size) >= Self.minimumSize else {
            throw PluginImageError(
                .abiMismatch,
                "plugin table is \(size) bytes, the smallest table this host accepts is \(Self.minimumSize) bytes")
        }
        var copy = sy_plugin_table()
        let count = min(Int(size), MemoryLayout<sy_plugin_table>.size)
        withUnsafeMutableBytes(of: &copy) { destination in
            destination.copyMemory(from: UnsafeRawBufferPointer(start: raw, count: count))
        }
        guard copy.create != nil, copy.destroy != nil, copy.invoke != nil else {
            throw PluginImageError(.abiMismatch, "plugin table lacks create, destroy or invoke")
        }
        entries = copy
        structSize = size
    }

    /// Whether the plugin can be asked to stop a call.
    package var hasCancel: Bool { entries.cancel != nil }

    /// Whether the manifest says the plugin's entry points and completions return at once
    /// (``PluginManifest/returnsPromptly``); false when it does not say so or cannot be read.
    package var returnsPromptly: Bool {
        guard let manifest = entries.manifest_json else { return false }
        let json = Data(bytes: manifest, count: strlen(manifest))
        return (try? JSONDecoder().decode(PromptnessClaim.self, from: json))?.returnsPromptly == true
    }

    /// The names of the entry points present, in table order.
    package var entryNames: [String] {
        var names = ["create", "destroy", "invoke"]
        if hasCancel { names.append("cancel") }
        return names
    }
}

/// The one manifest field the worker reads itself.
private struct PromptnessClaim: Decodable {
    var returnsPromptly: Bool?
}
