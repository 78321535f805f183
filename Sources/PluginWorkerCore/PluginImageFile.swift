import CSwitchyardPlugin
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Opens a plugin image and reads its entry table: the steps the scanner, the server and the worker
/// process share.
package enum PluginImageFile {
    /// Opens `path` and returns its entry table once its ABI version and size are acceptable.
    package static func open(_ path: String) throws(PluginImageError) -> PluginTable {
        guard let image = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE) else {
            let detail = dlerror().map { String(cString: $0) } ?? "unknown error"
            throw PluginImageError(.notLoadable, "not a loadable shared object (\(shortened(detail, without: path)))")
        }
        // Never dlclose: unloading a Swift image breaks the runtime's conformance caches.
        guard let symbol = dlsym(image, SWITCHYARD_PLUGIN_ENTRY_SYMBOL) else {
            throw PluginImageError(.notLoadable, "no \(SWITCHYARD_PLUGIN_ENTRY_SYMBOL) symbol")
        }
        let entry = unsafeBitCast(symbol, to: sy_plugin_entry_fn.self)
        guard let table = entry() else {
            throw PluginImageError(.notLoadable, "\(SWITCHYARD_PLUGIN_ENTRY_SYMBOL) returned no table")
        }
        // Read the version alone first: a table of another ABI may have another layout.
        let version = UnsafeRawPointer(table).load(as: UInt32.self)
        let expected = UInt32(SWITCHYARD_PLUGIN_ABI_VERSION)
        guard version == expected else {
            throw PluginImageError(.abiMismatch, "plugin ABI version \(version), host ABI version \(expected)")
        }
        return try PluginTable(reading: table)
    }

    /// `dlerror` text without the private copy's path, trimmed to a sensible length.
    private static func shortened(_ detail: String, without path: String) -> String {
        let text = detail.replacing(path + ": ", with: "").replacing(path, with: "")
        return String(text.prefix(200))
    }
}

/// Why a plugin image cannot be used, before its manifest is read.
package struct PluginImageError: Error, Sendable {
    /// What kind of failure.
    package enum Kind: Sendable {
        /// Not a loadable shared object, or no usable entry function.
        case notLoadable
        /// Another ABI version, or a table too small.
        case abiMismatch
    }

    package var kind: Kind
    package var reason: String

    package init(_ kind: Kind, _ reason: String) {
        self.kind = kind
        self.reason = reason
    }
}
