import CSwitchyardPlugin
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Exports a Swift ``Provider`` through the C plugin ABI.
///
/// A plugin's entry file is exactly:
/// ```swift
/// import ProviderKit
/// @_cdecl("switchyard_plugin_entry")
/// public func switchyardPluginEntry() -> UnsafeRawPointer {
///     UnsafeRawPointer(PluginExport.table(for: MyProvider.self))
/// }
/// ```
public enum PluginExport {
    /// The constant C table that exports `type`.
    ///
    /// The table is built once per process and provider type and is never freed. Its `abi_version` is
    /// the `SWITCHYARD_PLUGIN_ABI_VERSION` macro, so the number is compiled into the plugin.
    ///
    /// - Parameter type: The provider type to export.
    /// - Returns: A pointer to the table, valid for the life of the process.
    public static func table<P: Provider>(for type: P.Type) -> UnsafePointer<sy_plugin_table> {
        ExportRegistry.shared.table(for: type)
    }
}

/// Builds and remembers one table per provider type.
///
/// C function pointers cannot capture context, so `create` (the only entry without an instance) is one
/// of a fixed set of slot trampolines; each slot knows how to construct one provider type.
final class ExportRegistry: @unchecked Sendable {
    static let shared = ExportRegistry()

    /// How many provider types one process can export (a plugin exports one; tests a few).
    static let slotCount = ExportTrampolines.create.count

    private let lock = SDKLock()
    private var tables: [ObjectIdentifier: UnsafePointer<sy_plugin_table>] = [:]
    private var factories: [@Sendable (CHostServices) -> PluginExportInstance] = []

    func table<P: Provider>(for type: P.Type) -> UnsafePointer<sy_plugin_table> {
        lock.lock()
        defer { lock.unlock() }
        if let table = tables[ObjectIdentifier(type)] {
            return table
        }
        let slot = factories.count
        precondition(slot < Self.slotCount, "PluginExport: too many provider types exported in one process")
        factories.append { host in PluginExportInstance.make(P.self, host: host) }
        let table = Self.makeTable(manifestJSON: Self.manifestJSON(P.manifest), create: ExportTrampolines.create[slot])
        tables[ObjectIdentifier(type)] = table
        return table
    }

    /// The factory registered for a slot, if any.
    func factory(slot: Int) -> (@Sendable (CHostServices) -> PluginExportInstance)? {
        lock.lock()
        defer { lock.unlock() }
        return slot < factories.count ? factories[slot] : nil
    }

    private static func manifestJSON(_ manifest: PluginManifest) -> UnsafePointer<CChar> {
        let data = (try? PluginJSON.encoder().encode(manifest)) ?? Data("{}".utf8)
        let bytes = UnsafeMutablePointer<CChar>.allocate(capacity: data.count + 1)
        data.withUnsafeBytes { raw in
            for (index, byte) in raw.enumerated() {
                bytes[index] = CChar(bitPattern: byte)
            }
        }
        bytes[data.count] = 0
        return UnsafePointer(bytes)
    }

    private static func makeTable(
        manifestJSON: UnsafePointer<CChar>, create: ExportTrampolines.CreateFunction
    ) -> UnsafePointer<sy_plugin_table> {
        let table = UnsafeMutablePointer<sy_plugin_table>.allocate(capacity: 1)
        table.initialize(
            to: sy_plugin_table(
                abi_version: UInt32(SWITCHYARD_PLUGIN_ABI_VERSION),
                struct_size: UInt32(MemoryLayout<sy_plugin_table>.size),
                manifest_json: manifestJSON,
                create: create,
                destroy: ExportTrampolines.destroy,
                invoke: ExportTrampolines.invoke,
                cancel: ExportTrampolines.cancel
            )
        )
        return UnsafePointer(table)
    }
}
